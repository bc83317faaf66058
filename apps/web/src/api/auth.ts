import type { CaptchaResponse, LoginRequest, LoginResponse, UserInfo } from '@ks/contracts';
import { paths } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { request } from './request';

export interface CurrentUser {
  userInfo: UserInfo;
  roles: string[];
}

/** data of a failed login (400 / 429). */
export interface LoginErrorData {
  captchaRequired?: boolean;
  lockedUntil?: string;
}

/** The login public key and a single-use nonce for the next sign-in (the OAEP label of its ciphertexts). */
export function fetchPublicKey(): Promise<{ publicKey: string; nonce: string }> {
  return request<{ publicKey: string; nonce: string }>({
    url: paths.publicKey.path,
    method: paths.publicKey.method,
    isToken: false,
  });
}

/** Does a sign-in of this account from here need a captcha now? Silent: the form works either way. */
export function fetchCaptchaNeeded(logValue: string): Promise<boolean> {
  return request<{ captchaRequired: boolean }>({
    url: paths.captchaNeeded.path,
    method: paths.captchaNeeded.method,
    data: { logValue },
    isToken: false,
    silent: true,
  }).then((d) => d.captchaRequired);
}

/** Both passwords must already be encrypted (no label). Field errors come back as an ApiError (silent). */
export function updateSecret(body: { oldPassword: string; newPassword: string }): Promise<null> {
  return request<null>({ url: paths.updateSecret.path, method: paths.updateSecret.method, data: body, silent: true });
}

export function fetchCaptcha(): Promise<CaptchaResponse> {
  return request<CaptchaResponse>({ url: paths.captcha.path, method: paths.captcha.method, isToken: false });
}

/** logValue, passWord and loginRoleType must already be encrypted. */
export function login(body: LoginRequest): Promise<LoginResponse> {
  return request<LoginResponse>({
    url: paths.login.path,
    method: paths.login.method,
    data: body,
    isToken: false,
  });
}

/** Revokes the token; silent, because the caller leaves the session whatever the answer. */
export function logout(): Promise<unknown> {
  return request({ url: paths.logout.path, method: paths.logout.method, silent: true });
}

export function checkLogin(): Promise<CurrentUser> {
  return request<CurrentUser>({ url: paths.checkLogin.path, method: paths.checkLogin.method });
}

/** The signed-in user as the server confirms it; shared by the layout and the pages. */
export const currentUserQuery = queryOptions({
  queryKey: ['checkLogin'],
  queryFn: checkLogin,
  staleTime: 60_000,
});
