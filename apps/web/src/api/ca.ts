import type { CaBindingsQuery, CaRegisterBody, CaSigned } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './call';

/** CA certificate sign-in (/caLogin, /caRegister) and the bindings of /lock. */

export const CA_KEY = ['ca'] as const;
export const CA_BINDINGS_KEY = [...CA_KEY, 'bindings'] as const;

/** Whether CA sign-in works here and the local signing agent's address (public). */
export const caConfigQuery = queryOptions({
  queryKey: [...CA_KEY, 'config'],
  queryFn: () => call('caConfig', { isToken: false }),
  staleTime: 5 * 60_000,
});

/** A single-use nonce the certificate's key signs; silent: the page shows what went wrong. */
export const fetchCaNonce = () => call('caNonce', { isToken: false, silent: true });

/** The enterprise a certificate maps to, once the server has checked it (silent: refusals are shown beside it). */
export const fetchCaEntInfo = (certificate: string) =>
  call('caEntInfo', { data: { certificate }, isToken: false, silent: true });

export const caSignIn = (body: CaSigned) => call('caSignIn', { data: body, isToken: false, silent: true });

export const caRegister = (body: CaRegisterBody) => call('caRegister', { data: body, isToken: false, silent: true });

export const caBindingsQuery = (q: CaBindingsQuery) =>
  queryOptions({
    queryKey: [...CA_BINDINGS_KEY, q],
    queryFn: () => call('caBindings', { params: q }),
    placeholderData: keepPreviousData,
  });

/** Binding from /lock: silent, the dialog shows the refusal (an expired or foreign certificate …). */
export const caBind = (body: CaSigned) => call('caBind', { data: body, silent: true });

export const caUnbind = (id: string) => call('caUnbind', { data: { id } });
