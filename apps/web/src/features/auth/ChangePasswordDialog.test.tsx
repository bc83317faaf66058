import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { dropPasswordChange, offerPasswordChange, requirePasswordChange } from '../../lib/passwordChange';
import { renderRoutes } from '../../test/render';
import { ChangePasswordDialog, FORCED_PASSWORD_NOTICE, VOLUNTARY_PASSWORD_NOTICE } from './ChangePasswordDialog';

afterEach(() => {
  act(() => dropPasswordChange());
});

describe('ChangePasswordDialog', () => {
  it('asked for from the user menu: the notice says other sessions end, and 取消 closes it', async () => {
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <ChangePasswordDialog /> }]);
    act(() => offerPasswordChange());
    expect(await screen.findByText(VOLUNTARY_PASSWORD_NOTICE)).toBeTruthy();
    expect(screen.queryByTestId('password-change-logout')).toBeNull();
    await user.click(screen.getByTestId('password-change-cancel'));
    await waitFor(() => expect(screen.queryByText(VOLUNTARY_PASSWORD_NOTICE)).toBeNull());
  });

  it('required by the server: no 取消, only 退出登录 — even if the owner had opened it first', async () => {
    renderRoutes([{ path: '/', element: <ChangePasswordDialog /> }]);
    act(() => offerPasswordChange());
    act(() => requirePasswordChange());
    expect(await screen.findByText(FORCED_PASSWORD_NOTICE)).toBeTruthy();
    expect(screen.queryByTestId('password-change-cancel')).toBeNull();
    expect(screen.getByTestId('password-change-logout')).toBeTruthy();
  });
});
