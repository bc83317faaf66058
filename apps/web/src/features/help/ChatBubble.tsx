import { CustomerServiceOutlined, RobotOutlined, UserOutlined } from '@ant-design/icons';
import { formatIn } from '@ks/contracts';
import { Avatar, theme as antdTheme } from 'antd';
import type { ReactNode } from 'react';
import { sanitizeHtml } from '../../lib/sanitize';

/** Who wrote a bubble: a user, an agent or the robot. */
export type Who = 'user' | 'agent' | 'robot';

/** A stored chat message's text (plain text the server sanitised and escaped), sanitised again as it is shown. */
export function MessageText({ body }: { body: string }) {
  return (
    <span
      style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server and again here (DOMPurify)
      dangerouslySetInnerHTML={{ __html: sanitizeHtml(body) }}
    />
  );
}

export function ChatBubble({
  who,
  mine = false,
  name,
  at,
  children,
  testId,
}: {
  who: Who;
  /** the reader's own message: on the right */
  mine?: boolean;
  name?: string;
  at?: string;
  children: ReactNode;
  testId?: string;
}) {
  const { token } = antdTheme.useToken();
  const icon = who === 'robot' ? <RobotOutlined /> : who === 'agent' ? <CustomerServiceOutlined /> : <UserOutlined />;
  const color = who === 'robot' ? '#13a8a8' : who === 'agent' ? '#fa8c16' : token.colorPrimary;
  return (
    <div
      data-testid={testId}
      data-who={who}
      style={{ display: 'flex', flexDirection: mine ? 'row-reverse' : 'row', gap: 8, margin: '10px 0' }}
    >
      <Avatar size={30} icon={icon} style={{ background: color, flex: 'none' }} />
      <div style={{ maxWidth: '78%', textAlign: mine ? 'right' : 'left' }}>
        {name || at ? (
          <div style={{ fontSize: 12, color: token.colorTextTertiary, marginBottom: 2 }}>
            {name}
            {at ? ` ${formatIn(at, 'MM-DD HH:mm')}` : ''}
          </div>
        ) : null}
        <div
          style={{
            display: 'inline-block',
            textAlign: 'left',
            padding: '8px 12px',
            borderRadius: 8,
            background: mine ? token.colorPrimary : token.colorFillTertiary,
            color: mine ? '#fff' : token.colorText,
            fontSize: 14,
            lineHeight: 1.6,
          }}
        >
          {children}
        </div>
      </div>
    </div>
  );
}
