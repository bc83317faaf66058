import type { ApiBody, ApiData, MessageKind } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './call';

/**
 * The message centre (issue 14, screen 17): the bell's counts, the to-dos per system and their list, the user's
 * messages and rejections, and (administrators) publishing messages with their receipts.
 */

export const MESSAGES_KEY = ['messages'] as const;
export const MESSAGE_COUNTS_KEY = [...MESSAGES_KEY, 'counts'] as const;
export const TODO_SYSTEMS_KEY = [...MESSAGES_KEY, 'todoSystems'] as const;
export const TODO_LIST_KEY = [...MESSAGES_KEY, 'todoList'] as const;
export const MESSAGE_LIST_KEY = [...MESSAGES_KEY, 'list'] as const;
export const SENT_KEY = [...MESSAGES_KEY, 'sent'] as const;

/** The bell: open to-dos and unread messages. Silent: a bell that cannot count shows nothing. */
export const messageCountsQuery = queryOptions({
  queryKey: MESSAGE_COUNTS_KEY,
  queryFn: () => call('messageCounts', { silent: true }),
  staleTime: 30_000,
});

/** The systems with open to-dos of the caller (the system selector, badges). */
export const todoSystemsQuery = queryOptions({
  queryKey: TODO_SYSTEMS_KEY,
  queryFn: () => call('todoSystems'),
  staleTime: 30_000,
});

export const todoListQuery = (systemCoding: string | undefined, curPage: number, pageSize: number) =>
  queryOptions({
    queryKey: [...TODO_LIST_KEY, systemCoding ?? '', curPage, pageSize],
    queryFn: () => call('todoList', { data: { systemCoding, curPage, pageSize, sizes: [pageSize] } }),
    placeholderData: keepPreviousData,
  });

export const messageListQuery = (curPage: number, pageSize: number, kind?: MessageKind) =>
  queryOptions({
    queryKey: [...MESSAGE_LIST_KEY, kind ?? 'all', curPage, pageSize],
    queryFn: () => call('messageList', { data: { curPage, pageSize, ...(kind ? { kind } : {}) } }),
    placeholderData: keepPreviousData,
  });

export const rejectedMsgQuery = (curPage: number, pageSize: number) =>
  queryOptions({
    queryKey: [...MESSAGE_LIST_KEY, 'rejected-msg', curPage, pageSize],
    queryFn: () => call('rejectedMsg', { data: { curPage, pageSize } }),
    placeholderData: keepPreviousData,
  });

export function readMessages(body: ApiBody<'messageRead'>) {
  return call('messageRead', { data: body, silent: true });
}

export type SentFilters = { pageNum: number; pageSize: number; keyword?: string };
export const sentMessagesQuery = (f: SentFilters) =>
  queryOptions({
    queryKey: [...SENT_KEY, f],
    queryFn: () => call('messageSent', { data: { curPage: f.pageNum, pageSize: f.pageSize, keyword: f.keyword } }),
    placeholderData: keepPreviousData,
  });

export const receiptsQuery = (id: string) =>
  queryOptions({ queryKey: [...SENT_KEY, 'receipts', id], queryFn: () => call('messageReceipt', { params: { id } }) });

export const recipientsQuery = (keyword: string) =>
  queryOptions({
    queryKey: [...MESSAGES_KEY, 'recipients', keyword],
    queryFn: () => call('messageRecipients', { params: keyword ? { keyword } : {} }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** Silent: the dialog shows field errors on its fields. */
export function publishMessage(body: ApiBody<'messagePublish'>): Promise<ApiData<'messagePublish'>> {
  return call('messagePublish', { data: body, silent: true });
}
