import { queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call';

/** The opening-and-evaluation log's public calls (contracts ledger-api.ts): no token, for anyone. */
export const LEDGER_KEY = ['ledger'] as const;

export const verifyQuery = queryOptions({
  queryKey: [...LEDGER_KEY, 'verify'],
  queryFn: () => call('ledgerVerify', { isToken: false }),
  staleTime: 0,
});

export const anchorsQuery = (limit = 30) =>
  queryOptions({
    queryKey: [...LEDGER_KEY, 'anchors', limit],
    queryFn: () => call('ledgerAnchors', { params: { limit }, isToken: false }),
    staleTime: 60_000,
  });
