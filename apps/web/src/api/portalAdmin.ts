import type { AdminNotice, NoticeCategory, NoticeInput, NoticeStatus } from '@ks/contracts';
import { paths } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { isApiError, type Params, reportApiError, request } from './request';

/** Administration of portal notices (admins only; the server answers 403 to anyone else). */

export interface AdminNoticeFilters {
  status?: NoticeStatus;
  category?: NoticeCategory;
  keyword?: string;
  pageNum: number;
  pageSize: number;
}

export interface AdminNoticePage {
  records: AdminNotice[];
  total: number;
}

/** An update carries the version it was based on; a stale one is refused with 409. */
export type NoticeSaveBody = NoticeInput | (NoticeInput & { id: string; version: number });

export const ADMIN_NOTICES_KEY = ['adminNotices'] as const;

/** A 403 (drafts are not for everyone who sees the menu, e.g. developers) is shown by the page; the rest as usual. */
export const adminNoticeListQuery = (f: AdminNoticeFilters) =>
  queryOptions({
    queryKey: [...ADMIN_NOTICES_KEY, 'list', f],
    queryFn: () =>
      request<AdminNoticePage>({
        url: paths.adminNoticeList.path,
        method: paths.adminNoticeList.method,
        params: { ...f } as Params,
        silent: true,
      }).catch((err: unknown) => {
        if (isApiError(err) && err.status !== 403) reportApiError(err);
        throw err;
      }),
    placeholderData: keepPreviousData,
    retry: (n, err) => !(isApiError(err) && err.status === 403) && n < 1,
  });

export const adminNoticeDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...ADMIN_NOTICES_KEY, 'detail', id],
    queryFn: () =>
      request<AdminNotice>({
        url: paths.adminNoticeDetail.path,
        method: paths.adminNoticeDetail.method,
        params: { id },
      }),
    staleTime: 0,
  });

/** Silent: the form shows field errors itself and reports everything else through reportApiError. */
export function saveNotice(body: NoticeSaveBody): Promise<AdminNotice> {
  return request<AdminNotice>({
    url: paths.adminNoticeSave.path,
    method: paths.adminNoticeSave.method,
    data: body,
    silent: true,
  });
}

export function publishNotice(id: string): Promise<AdminNotice> {
  return request<AdminNotice>({
    url: paths.adminNoticePublish.path,
    method: paths.adminNoticePublish.method,
    data: { id },
  });
}

export function withdrawNotice(id: string): Promise<AdminNotice> {
  return request<AdminNotice>({
    url: paths.adminNoticeWithdraw.path,
    method: paths.adminNoticeWithdraw.method,
    data: { id },
  });
}

export function deleteNotice(id: string): Promise<null> {
  return request<null>({ url: paths.adminNoticeDelete.path, method: paths.adminNoticeDelete.method, data: { id } });
}
