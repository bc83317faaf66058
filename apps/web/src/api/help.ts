import type {
  ApiBody,
  ChatConversation,
  ChatMessage,
  ChatThread,
  FaqItem,
  HelpGroup,
  RobotAnswer,
} from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from './call';

/**
 * Help and FAQ (screen 10) and customer service (screen 23); shapes in packages/contracts/src/help.ts. Reads for the
 * viewer and the chat are for everyone signed in; the administration and the agents' console for administrators.
 */

export type { ChatConversation, ChatMessage, ChatThread, FaqItem, HelpGroup, RobotAnswer };

export const HELP_KEY = ['help'] as const;
export const CHAT_KEY = ['chat'] as const;

export interface HelpPlace {
  systemCoding: string;
  gnCoding?: string;
}

/** The help tree of a system or node (`/ks/guide/node/descritons`). */
export const helpTreeQuery = (p: HelpPlace) =>
  queryOptions({
    queryKey: [...HELP_KEY, 'tree', p.systemCoding, p.gnCoding ?? ''],
    queryFn: () => call('helpTree', { data: p }),
    staleTime: 60_000,
  });

/** The FAQ of a system or node (faq-list). */
export const faqListQuery = (p: HelpPlace) =>
  queryOptions({
    queryKey: [...HELP_KEY, 'faq', p.systemCoding, p.gnCoding ?? ''],
    queryFn: () => call('faqList', { data: p }),
    staleTime: 60_000,
  });

/** Every node's help of a system (administration). */
export const helpAdminQuery = (systemCoding: string) =>
  queryOptions({
    queryKey: [...HELP_KEY, 'admin', systemCoding],
    queryFn: () => call('helpAdmin', { params: { systemCoding } }),
  });

export const saveHelpGroup = (data: ApiBody<'helpGroupSave'>) => call('helpGroupSave', { data, silent: true });
export const deleteHelpGroup = (id: string) => call('helpGroupDelete', { data: { id } });
export const addHelpFile = (groupId: string, fileId: string) => call('helpFileAdd', { data: { groupId, fileId } });
export const deleteHelpFile = (id: string) => call('helpFileDelete', { data: { id } });
export const saveFaq = (data: ApiBody<'faqSave'>) => call('faqSave', { data, silent: true });
export const deleteFaq = (id: string) => call('faqDelete', { data: { id } });

/** The robot's nearest FAQ entries (at most three). */
export const askRobot = (question: string, systemCoding?: string) =>
  call('robotAsk', { data: { question, ...(systemCoding ? { systemCoding } : {}) } });

/** The caller's current conversation with the agents. */
export const myChatQuery = queryOptions({
  queryKey: [...CHAT_KEY, 'mine'],
  queryFn: () => call('chatMine'),
});
export const sendChat = (text: string) => call('chatSend', { data: { text } });

/** The agents' console. */
export const chatQueueQuery = (status: 'open' | 'closed') =>
  queryOptions({
    queryKey: [...CHAT_KEY, 'queue', status],
    queryFn: () => call('chatQueue', { params: { status } }),
  });
export const chatThreadQuery = (conversationId: string) =>
  queryOptions({
    queryKey: [...CHAT_KEY, 'thread', conversationId],
    queryFn: () => call('chatThread', { params: { conversationId } }),
  });
export const replyChat = (conversationId: string, text: string) =>
  call('chatReply', { data: { conversationId, text } });
export const closeChat = (conversationId: string) => call('chatClose', { data: { conversationId } });
