import { useQuery } from '@tanstack/react-query';
import { currentUserQuery } from '../../api/auth';
import { getRoles } from '../../lib/session';

export const ADMIN_ROLE = 'admin';

/** Whether the signed-in user is an administrator: the roles the server confirmed, else those stored at sign-in. */
export function useIsAdmin(): boolean {
  const { data } = useQuery(currentUserQuery);
  return (data?.roles ?? getRoles()).includes(ADMIN_ROLE);
}
