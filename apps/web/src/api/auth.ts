import type { CaptchaResponse, CurrentUser, LoginErrorData, LoginRequest, LoginResponse } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from './call';

export type { CurrentUser };

/** data of a failed login (400 / 429): what the contract says, read defensively (any field may be missing). */
export type LoginFailureData = Partial<LoginErrorData>;

/** The login public key and a single-use nonce for the next sign-in (the OAEP label of its ciphertexts). */
export function fetchPublicKey(): Promise<{ publicKey: string; nonce: string }> {
  return call('publicKey', { isToken: false });
}

/** Does a sign-in of this account from here need a captcha now? Silent: the form works either way. */
export function fetchCaptchaNeeded(logValue: string): Promise<boolean> {
  return call('captchaNeeded', { data: { logValue }, isToken: false, silent: true }).then((d) => d.captchaRequired);
}

/** Both passwords must already be encrypted (no label). Field errors come back as an ApiError (silent). */
export function updateSecret(body: { oldPassword: string; newPassword: string }): Promise<null> {
  return call('updateSecret', { data: body, silent: true });
}

export function fetchCaptcha(): Promise<CaptchaResponse> {
  return call('captcha', { isToken: false });
}

/** logValue, passWord and loginRoleType must already be encrypted. */
export function login(body: LoginRequest): Promise<LoginResponse> {
  return call('login', { data: body, isToken: false });
}

/** Revokes the token; silent, because the caller leaves the session whatever the answer. */
export function logout(): Promise<unknown> {
  return call('logout', { silent: true });
}

export function checkLogin(): Promise<CurrentUser> {
  return call('checkLogin');
}

/** The signed-in user as the server confirms it; shared by the layout and the pages. */
export const currentUserQuery = queryOptions({
  queryKey: ['checkLogin'],
  queryFn: checkLogin,
  staleTime: 60_000,
});
