import { SendOutlined } from '@ant-design/icons';
import { CHAT_TEXT_MAX, type HelpPlace, type RobotAnswer } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Drawer, Input, Segmented, Space, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { askRobot, CHAT_KEY, myChatQuery, sendChat } from '../../api/help';
import { useLiveEvent } from '../../lib/live';
import { ChatBubble, MessageText } from './ChatBubble';

export type ChatMode = 'robot' | 'human';

export const CHAT_TEXT = {
  title: '在线客服',
  robot: '机器人',
  human: '人工',
  toHuman: '转人工',
  greeting: '您好，我是智能客服小晋，请描述您遇到的问题，例如“信用变更怎么申请”。',
  found: '为您找到以下相关问题：',
  notFound: '抱歉，没有找到相关问题。您可以换个说法，或点击“转人工”咨询客服人员。',
  humanGreeting: '您好，人工客服在线，请直接输入您的问题，客服人员会尽快回复。',
  closed: '本次会话已结束，发送新消息将开始新的会话。',
  viewHelp: '查看帮助',
  placeholder: '请输入您的问题（Enter 发送，Shift+Enter 换行）',
} as const;

interface RobotTurn {
  id: number;
  question: string;
  answer: RobotAnswer | null;
  failed?: boolean;
}

function RobotPane({
  systemCoding,
  onHuman,
  onOpenHelp,
}: {
  systemCoding: string | undefined;
  onHuman: () => void;
  onOpenHelp: (place: HelpPlace) => void;
}) {
  const [turns, setTurns] = useState<RobotTurn[]>([]);
  const [text, setText] = useState('');
  const seq = useRef(0);
  const end = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the newest turn whenever one is added
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [turns]);

  const ask = async () => {
    const q = text.trim();
    if (!q) return;
    const id = ++seq.current;
    setText('');
    setTurns((t) => [...t, { id, question: q, answer: null }]);
    try {
      const answer = await askRobot(q.slice(0, 200), systemCoding);
      setTurns((t) => t.map((x) => (x.id === id ? { ...x, answer } : x)));
    } catch {
      setTurns((t) => t.map((x) => (x.id === id ? { ...x, failed: true } : x)));
    }
  };

  return (
    <ChatFrame
      text={text}
      setText={setText}
      onSend={ask}
      sendTestId="robot-send"
      extra={
        <Button size="small" onClick={onHuman} data-testid="to-human">
          {CHAT_TEXT.toHuman}
        </Button>
      }
    >
      <ChatBubble who="robot" name="智能客服">
        {CHAT_TEXT.greeting}
      </ChatBubble>
      {turns.map((t) => (
        <div key={t.id}>
          <ChatBubble who="user" mine>
            {t.question}
          </ChatBubble>
          {t.answer || t.failed ? (
            <ChatBubble who="robot" name="智能客服" testId="robot-answer">
              {t.answer?.matches.length ? (
                <div style={{ display: 'grid', gap: 8 }}>
                  <span>{CHAT_TEXT.found}</span>
                  {t.answer.matches.map((m) => (
                    <Card key={m.id} size="small" data-testid="robot-match" styles={{ body: { padding: 10 } }}>
                      <Typography.Text strong>{m.question}</Typography.Text>
                      <Typography.Paragraph style={{ margin: '4px 0', whiteSpace: 'pre-wrap' }}>
                        {m.answer}
                      </Typography.Paragraph>
                      <Typography.Link
                        onClick={() =>
                          onOpenHelp({ systemCoding: m.systemCoding, ...(m.gnCoding ? { gnCoding: m.gnCoding } : {}) })
                        }
                        data-testid="robot-help-link"
                      >
                        {CHAT_TEXT.viewHelp}
                      </Typography.Link>
                    </Card>
                  ))}
                </div>
              ) : (
                <Space direction="vertical" size={6}>
                  <span>{t.failed ? '网络异常，请稍后再试。' : CHAT_TEXT.notFound}</span>
                  <Button size="small" type="primary" onClick={onHuman}>
                    {CHAT_TEXT.toHuman}
                  </Button>
                </Space>
              )}
            </ChatBubble>
          ) : null}
        </div>
      ))}
      <div ref={end} />
    </ChatFrame>
  );
}

function HumanPane() {
  const qc = useQueryClient();
  const thread = useQuery(myChatQuery);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  const reread = () => void qc.invalidateQueries({ queryKey: [...CHAT_KEY, 'mine'] });
  useLiveEvent('chat', reread);
  useLiveEvent('resync', reread);
  const messages = thread.data?.messages ?? [];
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the newest message whenever one arrives
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length]);

  const send = async () => {
    const t = text.trim();
    if (!t || sending) return;
    setSending(true);
    try {
      await sendChat(t);
      setText('');
      reread();
    } finally {
      setSending(false);
    }
  };

  const closed = thread.data?.conversation?.status === 'closed';
  return (
    <ChatFrame text={text} setText={setText} onSend={send} sending={sending} sendTestId="human-send">
      <ChatBubble who="agent" name="人工客服">
        {CHAT_TEXT.humanGreeting}
      </ChatBubble>
      {messages.map((m) => (
        <ChatBubble
          key={m.id}
          who={m.sender === 'user' ? 'user' : 'agent'}
          mine={m.sender === 'user'}
          name={m.sender === 'user' ? undefined : `客服 ${m.senderName}`}
          at={m.createdAt}
          testId={m.sender === 'user' ? 'chat-mine' : 'chat-agent'}
        >
          <MessageText body={m.body} />
        </ChatBubble>
      ))}
      {closed ? (
        <div style={{ textAlign: 'center', margin: '8px 0' }}>
          <Tag data-testid="chat-closed">{CHAT_TEXT.closed}</Tag>
        </div>
      ) : null}
      <div ref={end} />
    </ChatFrame>
  );
}

function ChatFrame({
  text,
  setText,
  onSend,
  sending = false,
  sendTestId,
  extra,
  children,
}: {
  text: string;
  setText: (t: string) => void;
  onSend: () => void;
  sending?: boolean;
  sendTestId: string;
  extra?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <div style={{ flex: 1, overflowY: 'auto', paddingInline: 4 }} data-testid="chat-log">
        {children}
      </div>
      <div style={{ borderTop: '1px solid rgba(5,5,5,0.06)', paddingTop: 8 }}>
        <Input.TextArea
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={CHAT_TEXT_MAX}
          autoSize={{ minRows: 2, maxRows: 5 }}
          placeholder={CHAT_TEXT.placeholder}
          onPressEnter={(e) => {
            if (!e.shiftKey) {
              e.preventDefault();
              onSend();
            }
          }}
          data-testid="chat-input"
          aria-label="消息"
        />
        <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 8 }}>
          <span>{extra}</span>
          <Button
            type="primary"
            icon={<SendOutlined />}
            onClick={onSend}
            loading={sending}
            disabled={!text.trim()}
            data-testid={sendTestId}
          >
            发送
          </Button>
        </div>
      </div>
    </div>
  );
}

/**
 * Customer service (screen 23): a drawer that toggles 机器人 / 人工. The robot answers from the FAQ (the three nearest
 * questions, each with a link to the help viewer) and offers 转人工; human mode is the caller's conversation with the
 * administrators, re-read whenever a live `chat` event says it changed.
 */
export function ServiceChat({
  open,
  onClose,
  systemCoding,
  onOpenHelp,
  agent = false,
  onHuman,
}: {
  open: boolean;
  onClose: () => void;
  systemCoding: string | undefined;
  onOpenHelp: (place: HelpPlace) => void;
  /** administrators answer in the console; their panel has the robot only */
  agent?: boolean;
  /** what 转人工 does instead of switching to human mode (administrators: open the console) */
  onHuman?: () => void;
}) {
  const [mode, setMode] = useState<ChatMode>('robot');
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={440}
      title={CHAT_TEXT.title}
      data-testid="service-chat"
      extra={
        agent ? null : (
          <Segmented<ChatMode>
            value={mode}
            onChange={setMode}
            options={[
              { value: 'robot', label: CHAT_TEXT.robot },
              { value: 'human', label: CHAT_TEXT.human },
            ]}
            data-testid="chat-mode"
          />
        )
      }
      styles={{ body: { display: 'flex', flexDirection: 'column', paddingBlock: 12 } }}
    >
      {mode === 'robot' || agent ? (
        <RobotPane systemCoding={systemCoding} onHuman={onHuman ?? (() => setMode('human'))} onOpenHelp={onOpenHelp} />
      ) : (
        <HumanPane />
      )}
    </Drawer>
  );
}
