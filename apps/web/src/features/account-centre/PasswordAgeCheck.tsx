import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { secretTimeQuery } from '../../api/accountCentre';
import { requirePasswordChange } from '../../lib/passwordChange';

/**
 * Opens the forced change-password dialog when the password is older than PASSWORD_MAX_AGE_DAYS (the server's
 * update-secret-time says mustChange). Rendered once in the signed-in layout; renders nothing.
 */
export function PasswordAgeCheck() {
  const age = useQuery(secretTimeQuery);
  useEffect(() => {
    if (age.data?.mustChange) requirePasswordChange(undefined, 'expired');
  }, [age.data]);
  return null;
}
