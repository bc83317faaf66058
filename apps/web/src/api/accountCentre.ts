import type { LogHistoryItem, PhoneState, SecretTime, SmsOutboxItem, SmsPurpose } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from './call';

/** SMS codes, phone, password age, portrait and sign-in history (issue 15). Field errors come back as ApiErrors. */
export function sendSms(phone: string, purpose: SmsPurpose): Promise<{ resendAfterSeconds: number }> {
  return call('sendSms', { data: { phone, purpose }, silent: true });
}

export function verifySmsCode(phone: string, purpose: SmsPurpose, code: string): Promise<{ proof: string }> {
  return call('smsPhoneVerify', { data: { phone, purpose, code }, silent: true });
}

export function updatePhone(phone: string, proof: string): Promise<PhoneState> {
  return call('updatePhone', { data: { phone, proof }, silent: true });
}

export function verifyPhone(code: string): Promise<PhoneState> {
  return call('verifyPhone', { data: { code }, silent: true });
}

export function uploadPortrait(file: File): Promise<{ photo: string }> {
  const data = new FormData();
  data.append('file', file);
  return call('portrait', { data, silent: true });
}

export const phoneStateQuery = queryOptions({
  queryKey: ['account', 'phone'],
  queryFn: (): Promise<PhoneState> => call('phoneState', { silent: true }),
});

export const secretTimeQuery = queryOptions({
  queryKey: ['account', 'secretTime'],
  queryFn: (): Promise<SecretTime> => call('secretTime', { silent: true }),
  staleTime: 5 * 60_000,
});

export const logHistoryQuery = (page: number) =>
  queryOptions({
    queryKey: ['account', 'logHistory', page],
    queryFn: (): Promise<{ records: LogHistoryItem[]; total: number }> =>
      call('logHistory', { params: { page, pageSize: 10 }, silent: true }),
  });

export const smsOutboxQuery = (phone: string) =>
  queryOptions({
    queryKey: ['smsOutbox', phone],
    queryFn: (): Promise<SmsOutboxItem[]> =>
      call('smsOutbox', { params: phone ? { phone } : {}, isToken: false, silent: true }),
    refetchInterval: 5000,
  });
