import type { ApiBody, ApiData } from '@ks/contracts';
import { call } from './call';

/**
 * Self-registration, activation and real-name registration (issue 15): public calls, never with a token. Form
 * submissions are silent — their pages put the server's field errors on the fields.
 */

export type SmsSent = ApiData<'registerLegalPhone'>;
export type RegisterPurpose = ApiBody<'registerSmsPhoneCode'>['purpose'];

export const verifyCreditCode = (creditCode: string) =>
  call('registerVerify', { data: { creditCode }, isToken: false, silent: true });

export const registrationProgress = (creditCode: string, keyWord: string) =>
  call('registerProgress', { params: { creditCode, keyWord }, isToken: false, silent: true });

export const submitRegistration = (body: ApiBody<'registerSubmit'>) =>
  call('registerSubmit', { data: body, isToken: false, silent: true });

export function uploadLicence(file: File) {
  const data = new FormData();
  data.append('file', file, file.name);
  return call('registerLicence', { data, isToken: false, silent: true });
}

/** The code to the legal representative's phone (purpose legal). */
export const sendLegalCode = (phone: string) =>
  call('registerLegalPhone', { params: { phone }, isToken: false, silent: true });

/** The code for a phone and a registration purpose. */
export const sendPhoneCode = (phone: string, purpose: RegisterPurpose) =>
  call('registerSmsPhoneCode', { data: { phone, purpose }, isToken: false, silent: true });

/** A right code answers a single-use proof that the submission carries. */
export const verifyPhoneCode = (phone: string, purpose: RegisterPurpose, code: string) =>
  call('registerSmsVerify', { data: { phone, purpose, code }, isToken: false, silent: true });

export const registerPerson = (body: ApiBody<'userRegister'>) =>
  call('userRegister', { data: body, isToken: false, silent: true });

export type ActivationBasic = ApiBody<'activateVerify'>;

export const verifyActivation = (body: ActivationBasic) =>
  call('activateVerify', { data: body, isToken: false, silent: true });

export const sendActivationCode = (body: ActivationBasic) =>
  call('activateCode', { params: body, isToken: false, silent: true });

export const activateEnterprise = (body: ApiBody<'activate'>) =>
  call('activate', { data: body, isToken: false, silent: true });

export const adminCreateEnterprise = (body: ApiBody<'adminEnterpriseCreate'>) =>
  call('adminEnterpriseCreate', { data: body, silent: true });
