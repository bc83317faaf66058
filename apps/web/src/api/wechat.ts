import type { ApiData, WechatPurpose } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from './call';

/** WeChat QR sign-in and binding, the login mode and the login-devices list (issue 15). */

export type ScanStatus = ApiData<'wechatScanStatus'>;

/** The platform's login mode and sign-in methods (no token: the sign-in page asks it). Silent: the page works without. */
export const loginModeQuery = queryOptions({
  queryKey: ['loginMode'],
  queryFn: () => call('loginMode', { isToken: false, silent: true }),
  staleTime: 5 * 60_000,
  retry: false,
});

/** A new QR ticket; a bind ticket is for the signed-in caller. Silent: the dialog shows the reason itself. */
export const wechatQrcode = (purpose: WechatPurpose) =>
  call('wechatQrcode', { params: { purpose }, isToken: purpose === 'bind', silent: true });

/** One poll of a ticket (silent: the dialog shows failures in place). */
export const wechatScanStatus = (state: string, purpose: WechatPurpose) =>
  call('wechatScanStatus', { data: { state }, isToken: purpose === 'bind', silent: true });

export const WECHAT_LIST_KEY = ['wechatList'] as const;
export const wechatListQuery = queryOptions({ queryKey: WECHAT_LIST_KEY, queryFn: () => call('wechatList') });

export const wechatRemove = (id: string) => call('wechatRemove', { data: { id } });

export const loginDevicesQuery = queryOptions({ queryKey: ['loginDevices'], queryFn: () => call('loginDevices') });
