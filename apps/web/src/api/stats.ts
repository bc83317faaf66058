import type { ApiBody, ApiQuery } from '@ks/contracts';
import { paths } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './call';
import { saveBlob } from './engine';
import { download } from './request';

/**
 * 统计分析 (issue 19): transactions, 办件 counts, 办理进度, the to-do statistics and the participating enterprises, each
 * with its drill-down list; the participating enterprises' xlsx export. The server scopes every answer to the caller.
 */
export const STATS_KEY = ['stats'] as const;

export type TxnQuery = ApiQuery<'statsTransactions'>;
export type TxnListQuery = ApiQuery<'statsTransactionList'>;
export type PeriodQuery = ApiQuery<'statsCompleteCount'>;
export type CompleteListQuery = ApiQuery<'statsCompleteList'>;
export type ProgressListQuery = ApiQuery<'statsProgressList'>;
export type TodoRecordsQuery = ApiQuery<'todoStatsRecords'>;
export type TodoEnterpriseQuery = ApiQuery<'todoStatsEnterprise'>;
export type ParticipateQuery = ApiQuery<'participateEntList'>;

const q = <N extends Parameters<typeof call>[0]>(name: N, params: unknown, enabled = true) =>
  queryOptions({
    queryKey: [...STATS_KEY, name, params],
    queryFn: () => call(name, { params: params as never }),
    placeholderData: keepPreviousData,
    enabled,
  });

export const txnStatsQuery = (p: TxnQuery) => q('statsTransactions', p);
export const txnListQuery = (p: TxnListQuery, enabled = true) => q('statsTransactionList', p, enabled);
export const completeCountQuery = (p: PeriodQuery) => q('statsCompleteCount', p);
export const completeListQuery = (p: CompleteListQuery, enabled = true) => q('statsCompleteList', p, enabled);
export const progressQuery = (p: PeriodQuery) => q('statsProgress', p);
export const progressListQuery = (p: ProgressListQuery) => q('statsProgressList', p);
export const todoListQuery = (p: PeriodQuery) => q('todoStatsList', p);
export const todoRegionQuery = (p: PeriodQuery) => q('todoStatsRegion', p);
export const todoEnterpriseQuery = (p: TodoEnterpriseQuery) => q('todoStatsEnterprise', p);
export const todoRecordsQuery = (p: TodoRecordsQuery, enabled = true) => q('todoStatsRecords', p, enabled);
export const participateQuery = (p: ParticipateQuery) => q('participateEntList', p);
export const statsSettingsQuery = () =>
  queryOptions({ queryKey: [...STATS_KEY, 'settings'], queryFn: () => call('statsSettings') });

export const saveStatsSettings = (body: ApiBody<'statsSettingsSave'>) =>
  call('statsSettingsSave', { data: body, silent: true });

/** The participating enterprises of the filter as xlsx, handed to the browser. */
export async function downloadParticipate(body: ApiBody<'exportParticipateList'>) {
  const result = await download({
    url: paths.exportParticipateList.path,
    method: paths.exportParticipateList.method,
    data: body,
  });
  saveBlob(result, '参与交易企业.xlsx');
}
