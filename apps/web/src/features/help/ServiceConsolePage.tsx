import { SendOutlined } from '@ant-design/icons';
import { CHAT_TEXT_MAX, formatIn } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Empty as AntEmpty,
  App,
  Badge,
  Button,
  Card,
  Input,
  List,
  Popconfirm,
  Segmented,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { CHAT_KEY, chatQueueQuery, chatThreadQuery, closeChat, replyChat } from '../../api/help';
import { PageFrame } from '../../components/admin';
import { Empty } from '../../components/placeholders/Empty';
import { useLiveEvent } from '../../lib/live';
import { ChatBubble, MessageText } from './ChatBubble';

function Thread({ conversationId, onClosed }: { conversationId: string; onClosed: () => void }) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const thread = useQuery(chatThreadQuery(conversationId));
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  const messages = thread.data?.messages ?? [];
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the newest message whenever one arrives
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length]);
  // opening the thread marks it read: the list's badge follows
  useEffect(() => {
    if (thread.data) void qc.invalidateQueries({ queryKey: [...CHAT_KEY, 'queue'] });
  }, [thread.data, qc]);
  const c = thread.data?.conversation;
  const open = c?.status === 'open';

  const send = async () => {
    const t = text.trim();
    if (!t || busy) return;
    setBusy(true);
    try {
      await replyChat(conversationId, t);
      setText('');
      void qc.invalidateQueries({ queryKey: CHAT_KEY });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      size="small"
      title={
        c ? (
          <Space>
            <span data-testid="console-thread-user">{c.userName}</span>
            {c.enterpriseName ? <Typography.Text type="secondary">{c.enterpriseName}</Typography.Text> : null}
            {open ? <Tag color="green">进行中</Tag> : <Tag>已结束</Tag>}
          </Space>
        ) : (
          '会话'
        )
      }
      extra={
        open ? (
          <Popconfirm
            title="确认结束该会话？"
            okText="确定"
            cancelText="取消"
            onConfirm={async () => {
              await closeChat(conversationId);
              void message.success('会话已结束');
              void qc.invalidateQueries({ queryKey: CHAT_KEY });
              onClosed();
            }}
          >
            <Button size="small" danger data-testid="console-close">
              结束会话
            </Button>
          </Popconfirm>
        ) : null
      }
      styles={{ body: { display: 'flex', flexDirection: 'column', height: 'calc(100vh - 300px)', minHeight: 360 } }}
      data-testid="console-thread"
    >
      <div style={{ flex: 1, overflowY: 'auto' }}>
        {messages.map((m) => (
          <ChatBubble
            key={m.id}
            who={m.sender === 'agent' ? 'agent' : 'user'}
            mine={m.sender === 'agent'}
            name={m.sender === 'agent' ? `客服 ${m.senderName}` : m.senderName}
            at={m.createdAt}
            testId={m.sender === 'agent' ? 'console-agent-message' : 'console-user-message'}
          >
            <MessageText body={m.body} />
          </ChatBubble>
        ))}
        <div ref={end} />
      </div>
      {open ? (
        <div style={{ borderTop: '1px solid rgba(5,5,5,0.06)', paddingTop: 8 }}>
          <Input.TextArea
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={CHAT_TEXT_MAX}
            autoSize={{ minRows: 2, maxRows: 5 }}
            placeholder="输入回复（Enter 发送，Shift+Enter 换行）"
            onPressEnter={(e) => {
              if (!e.shiftKey) {
                e.preventDefault();
                void send();
              }
            }}
            data-testid="console-input"
            aria-label="回复"
          />
          <div style={{ textAlign: 'right', marginTop: 8 }}>
            <Button
              type="primary"
              icon={<SendOutlined />}
              loading={busy}
              disabled={!text.trim()}
              onClick={send}
              data-testid="console-send"
            >
              发送
            </Button>
          </div>
        </div>
      ) : null}
    </Card>
  );
}

/**
 * 客服工作台 (screen 23, the agents' side): the open (or ended) conversations, unread first with their counts, the
 * chosen conversation's thread, a reply box and 结束会话. Both lists follow live `chat-queue` events.
 */
export default function ServiceConsolePage() {
  const qc = useQueryClient();
  const [status, setStatus] = useState<'open' | 'closed'>('open');
  const [chosen, setChosen] = useState<string | null>(null);
  const queue = useQuery(chatQueueQuery(status));
  const reread = () => void qc.invalidateQueries({ queryKey: CHAT_KEY });
  useLiveEvent('chat-queue', reread);
  useLiveEvent('resync', reread);
  const rows = queue.data ?? [];

  return (
    <PageFrame section={{ title: '帮助与客服' }} title="客服工作台" wide>
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
        <Card
          size="small"
          style={{ width: 340, flex: 'none' }}
          title={
            <Segmented<'open' | 'closed'>
              value={status}
              onChange={(v) => {
                setStatus(v);
                setChosen(null);
              }}
              options={[
                { value: 'open', label: '进行中' },
                { value: 'closed', label: '已结束' },
              ]}
              data-testid="console-status"
            />
          }
          data-testid="console-queue"
        >
          <List
            loading={queue.isPending}
            dataSource={rows}
            locale={{ emptyText: <AntEmpty image={AntEmpty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" /> }}
            renderItem={(c) => (
              <List.Item
                key={c.id}
                onClick={() => setChosen(c.id)}
                style={{
                  cursor: 'pointer',
                  paddingInline: 8,
                  background: chosen === c.id ? 'rgba(22,119,255,0.08)' : undefined,
                  borderRadius: 6,
                }}
                data-testid="console-conversation"
              >
                <List.Item.Meta
                  title={
                    <Space>
                      <Badge count={c.agentUnread} size="small">
                        <span style={{ paddingInlineEnd: 8 }}>{c.userName}</span>
                      </Badge>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {formatIn(c.lastMessageAt, 'MM-DD HH:mm')}
                      </Typography.Text>
                    </Space>
                  }
                  description={
                    <Typography.Text type="secondary" ellipsis style={{ maxWidth: 280 }}>
                      {(c.enterpriseName ? `${c.enterpriseName} · ` : '') +
                        c.lastMessage.replace(/&[a-z]+;|&#\d+;/g, ' ')}
                    </Typography.Text>
                  }
                />
              </List.Item>
            )}
          />
        </Card>
        <div style={{ flex: 1, minWidth: 0 }}>
          {chosen ? (
            <Thread key={chosen} conversationId={chosen} onClosed={() => setChosen(null)} />
          ) : (
            <Card size="small">
              <Empty message="请选择左侧的会话" testId="console-empty" />
            </Card>
          )}
        </div>
      </div>
    </PageFrame>
  );
}
