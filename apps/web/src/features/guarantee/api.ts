import { type ApiBody, GUARANTEE_NODE, paths } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call';
import { saveBlob } from '../../api/engine';
import { download } from '../../api/request';
import { ENGINE_PAGES } from '../../lib/paths';

/**
 * Deposit and guarantee-letter calls (contracts deposits-api.ts). Changes are `silent`: the page shows the server's
 * message (e.g. 缴纳金额须等于…, 未配置出函机构…) beside the action instead of in the global prompt.
 */
export const DEPOSITS_KEY = ['deposits'] as const;

export const depositsQuery = (sectionId?: string) =>
  queryOptions({
    queryKey: [...DEPOSITS_KEY, 'list', sectionId ?? null],
    queryFn: () => call('depositList', { data: sectionId ? { sectionId } : {} }),
  });

export const sectionDepositsQuery = (sectionId: string) =>
  queryOptions({
    queryKey: [...DEPOSITS_KEY, 'section', sectionId],
    queryFn: () => call('depositPaymentStatus', { data: { sectionId } }),
  });

export const payDeposit = (data: ApiBody<'depositPay'>) => call('depositPay', { data, silent: true });
export const confirmReceived = (data: ApiBody<'depositReceived'>) => call('depositReceived', { data, silent: true });
export const refundDeposit = (data: ApiBody<'depositRefund'>) => call('depositRefund', { data, silent: true });
export const delayDeposits = (data: ApiBody<'depositDelay'>) => call('depositDelay', { data, silent: true });
export const applyGuarantee = (sectionId: string) => call('guaranteeApply', { data: { sectionId }, silent: true });
export const guaranteeResult = (id: string) => call('guaranteeResult', { data: { id }, silent: true });
export const retryGuarantee = (id: string) => call('guaranteeRetry', { data: { id }, silent: true });

/** Downloads an issued letter's PDF (the server lets its enterprise and the trading centre only). */
export async function downloadLetter(id: string, fallbackName: string) {
  const result = await download({
    url: `${paths.guaranteeFile.path}?${new URLSearchParams({ id })}`,
    method: paths.guaranteeFile.method,
  });
  saveBlob(result, fallbackName);
}

/** The engine form of a 保函申请 draft (attachments, then 提交). */
export const applicationFormHref = (id: string) =>
  `${ENGINE_PAGES.dynamic.detail}?${new URLSearchParams({ gnCoding: GUARANTEE_NODE, systemCoding: 'DZBH', id, mode: 'edit' })}`;
