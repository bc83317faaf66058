import { useQueryClient } from '@tanstack/react-query';
import { MESSAGE_COUNTS_KEY, MESSAGE_LIST_KEY, SENT_KEY, TODO_LIST_KEY, TODO_SYSTEMS_KEY } from '../../api/messages';
import { systemListQuery } from '../../api/platform';
import { MENUS_KEY } from '../../api/shell';
import { useLiveEvent } from '../../lib/live';

/**
 * Keeps the bell, the message centre and the sidebar's to-do badges current without a reload: a 'todos' event
 * re-reads the counts, the systems' to-dos, the to-do list, the sidebar menus (their badges) and the system list
 * (the cards' 待办 of /judge and the home page); a 'message' event the
 * counts, the message lists and (administrators) the sent messages' receipts; 'resync' (a reconnect that may have
 * missed events) all of them.
 */
export function useMessageLive() {
  const queryClient = useQueryClient();
  const refresh = (keys: readonly (readonly string[])[]) => {
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };
  const todos = () =>
    refresh([MESSAGE_COUNTS_KEY, TODO_SYSTEMS_KEY, TODO_LIST_KEY, MENUS_KEY, systemListQuery.queryKey]);
  const messages = () => refresh([MESSAGE_COUNTS_KEY, MESSAGE_LIST_KEY, SENT_KEY]);
  useLiveEvent('todos', todos);
  useLiveEvent('message', messages);
  useLiveEvent('resync', () => {
    todos();
    messages();
  });
}
