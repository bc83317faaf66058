import type { AdminNotice, ApiData, NoticeCategory, NoticeInput, NoticeStatus } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './call';
import { isApiError, reportApiError } from './request';

/** Administration of portal notices (admins only; the server answers 403 to anyone else). */

/** The list page's filters and paging, as the page holds them (the query it sends is the contract's). */
export interface AdminNoticeFilters {
  status?: NoticeStatus;
  category?: NoticeCategory;
  keyword?: string;
  pageNum: number;
  pageSize: number;
}

export type AdminNoticePage = ApiData<'adminNoticeList'>;

/** An update carries the version it was based on; a stale one is refused with 409. */
export type NoticeSaveBody = NoticeInput | (NoticeInput & { id: string; version: number });

export const ADMIN_NOTICES_KEY = ['adminNotices'] as const;

/** A 403 (drafts are not for everyone who sees the menu, e.g. developers) is shown by the page; the rest as usual. */
export const adminNoticeListQuery = (f: AdminNoticeFilters) =>
  queryOptions({
    queryKey: [...ADMIN_NOTICES_KEY, 'list', f],
    queryFn: () =>
      call('adminNoticeList', { params: f, silent: true }).catch((err: unknown) => {
        if (isApiError(err) && err.status !== 403) reportApiError(err);
        throw err;
      }),
    placeholderData: keepPreviousData,
    retry: (n, err) => !(isApiError(err) && err.status === 403) && n < 1,
  });

export const adminNoticeDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...ADMIN_NOTICES_KEY, 'detail', id],
    queryFn: () => call('adminNoticeDetail', { params: { id } }),
    staleTime: 0,
  });

/** Silent: the form shows field errors itself and reports everything else through reportApiError. */
export function saveNotice(body: NoticeSaveBody): Promise<AdminNotice> {
  return call('adminNoticeSave', { data: body, silent: true });
}

export function publishNotice(id: string): Promise<AdminNotice> {
  return call('adminNoticePublish', { data: { id } });
}

export function withdrawNotice(id: string): Promise<AdminNotice> {
  return call('adminNoticeWithdraw', { data: { id } });
}

export function deleteNotice(id: string): Promise<null> {
  return call('adminNoticeDelete', { data: { id } });
}
