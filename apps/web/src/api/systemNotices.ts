import type { ApiData, SystemNotice, SystemNoticeSave, SystemNoticeStatus, SystemNoticeType } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './call';

/** System notices (screen 16): the signed-in user's current ones, and their administration (administrators). */

export const SYSTEM_NOTICES_KEY = ['systemNotices'] as const;
export const CURRENT_NOTICES_KEY = [...SYSTEM_NOTICES_KEY, 'current'] as const;

/** What the signed-in user is shown now; re-read on the 'notice' live event, on 'resync' and after a read. */
export const currentNoticesQuery = queryOptions({
  queryKey: CURRENT_NOTICES_KEY,
  // a failure here must not put a dialog over the page the user came for: the next event or reload tries again
  queryFn: () => call('currentNotices', { silent: true }),
  staleTime: 60_000,
  retry: 1,
});

/** notice-read; silent: a notice withdrawn meanwhile (404) just closes. */
export const readNotice = (msgId: string) => call('noticeRead', { data: { msgId }, silent: true });
/** 不再显示 of the floating notice. */
export const dismissNotice = (msgId: string) => call('noticeDismiss', { data: { msgId } });

export interface SystemNoticeFilters {
  type?: SystemNoticeType;
  status?: SystemNoticeStatus;
  keyword?: string;
  pageNum: number;
  pageSize: number;
}

export const ADMIN_SYSTEM_NOTICES_KEY = [...SYSTEM_NOTICES_KEY, 'admin'] as const;

export const systemNoticeListQuery = (f: SystemNoticeFilters) =>
  queryOptions({
    queryKey: [...ADMIN_SYSTEM_NOTICES_KEY, 'list', f],
    queryFn: () => call('systemNoticeList', { params: f }),
    placeholderData: keepPreviousData,
  });

export const systemNoticeReadsQuery = (id: string, pageNum: number, pageSize: number) =>
  queryOptions({
    queryKey: [...ADMIN_SYSTEM_NOTICES_KEY, 'reads', id, pageNum, pageSize],
    queryFn: () => call('systemNoticeReads', { params: { id, pageNum, pageSize } }),
    placeholderData: keepPreviousData,
  });

export type SystemNoticeReadsPage = ApiData<'systemNoticeReads'>;

/** Silent: the form shows field errors itself (FormDialog). */
export const saveSystemNotice = (body: SystemNoticeSave): Promise<SystemNotice> =>
  call('systemNoticeSave', { data: body, silent: true });
export const publishSystemNotice = (id: string) => call('systemNoticePublish', { data: { id } });
export const withdrawSystemNotice = (id: string) => call('systemNoticeWithdraw', { data: { id } });
export const deleteSystemNotice = (id: string) => call('systemNoticeDelete', { data: { id } });
