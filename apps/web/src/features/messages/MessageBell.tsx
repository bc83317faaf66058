import { BellOutlined } from '@ant-design/icons';
import { MESSAGE_BADGE_MAX } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Badge, Drawer, Tabs, Tooltip } from 'antd';
import { type CSSProperties, useState } from 'react';
import { useNavigate } from 'react-router';
import { messageCountsQuery } from '../../api/messages';
import { MessagePane } from './MessagePane';
import { TodoPane } from './TodoPane';
import { useMessageLive } from './useMessageLive';

/** What the bell shows: to-dos and unread messages together, capped at 999 (§9). */
export const bellCount = (c: { todos: number; unread: number } | undefined) => (c ? c.todos + c.unread : 0);

/**
 * The header bell (screen 17): its badge is the user's open to-dos plus unread messages (max 999); administrators see
 * the unread count beside it too. A click opens the message centre: 待办 and 消息. Opening a to-do or a message goes to
 * its record and closes the drawer. Counts follow live events.
 */
export function MessageBell({ color, isAdmin }: { color: string; isAdmin: boolean }) {
  useMessageLive();
  const navigate = useNavigate();
  const { data: counts } = useQuery(messageCountsQuery);
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<'todos' | 'messages'>('todos');
  const go = (path: string) => {
    setOpen(false);
    if (path) void navigate(path);
  };
  const button: CSSProperties = {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: 6,
    height: 40,
    minWidth: 40,
    padding: '0 8px',
    border: 'none',
    borderRadius: 6,
    background: 'transparent',
    color,
    cursor: 'pointer',
  };
  const unread = counts?.unread ?? 0;
  return (
    <>
      <Tooltip title="消息中心">
        <button
          type="button"
          aria-label="消息中心"
          data-testid="message-bell"
          onClick={() => setOpen(true)}
          style={button}
        >
          <Badge count={bellCount(counts)} overflowCount={MESSAGE_BADGE_MAX} size="small" data-testid="bell-count">
            <BellOutlined style={{ fontSize: 18, color }} />
          </Badge>
          {isAdmin && unread > 0 ? (
            <span data-testid="bell-unread" style={{ fontSize: 12, opacity: 0.9 }}>
              未读 {unread > MESSAGE_BADGE_MAX ? `${MESSAGE_BADGE_MAX}+` : unread}
            </span>
          ) : null}
        </button>
      </Tooltip>
      <Drawer
        title="消息中心"
        open={open}
        onClose={() => setOpen(false)}
        width={440}
        destroyOnHidden
        data-testid="message-drawer"
        styles={{ body: { paddingTop: 8 } }}
      >
        <Tabs
          activeKey={tab}
          onChange={(k) => setTab(k as 'todos' | 'messages')}
          items={[
            {
              key: 'todos',
              label: (
                <span data-testid="tab-todos">
                  待办 <Badge count={counts?.todos ?? 0} overflowCount={MESSAGE_BADGE_MAX} size="small" />
                </span>
              ),
              children: <TodoPane onOpen={go} />,
            },
            {
              key: 'messages',
              label: (
                <span data-testid="tab-messages">
                  消息 <Badge count={unread} overflowCount={MESSAGE_BADGE_MAX} size="small" />
                </span>
              ),
              children: <MessagePane onOpen={go} unread={unread} />,
            },
          ]}
        />
      </Drawer>
    </>
  );
}
