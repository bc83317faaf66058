import { CustomerServiceOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import type { HelpPlace } from '@ks/contracts';
import { Tooltip } from 'antd';
import { type CSSProperties, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { getUserInfo } from '../../lib/session';
import { type HelpTab, HelpViewer } from './HelpViewer';
import { ServiceChat } from './ServiceChat';

export const SERVICE_CONSOLE_PATH = '/system/serviceConsole';

/** The node of the page in front of the user (a node's page names it in its address), if any. */
export function nodeOfSearch(search: string): string | undefined {
  const g = new URLSearchParams(search).get('gnCoding');
  return g && /^[A-Za-z][A-Za-z0-9_]{0,62}$/.test(g) ? g : undefined;
}

/**
 * The header's help and customer-service buttons (screens 10 and 23): 帮助 opens the help viewer for the current
 * system and node; 客服 the chat drawer (robot / human). The robot's 查看帮助 opens the viewer on the FAQ of the
 * matched question's system and node.
 */
export function ShellServices({
  systemCoding,
  systemName,
  buttonStyle,
}: {
  systemCoding: string | null;
  systemName?: string;
  buttonStyle: CSSProperties;
}) {
  const { search } = useLocation();
  const navigate = useNavigate();
  const [help, setHelp] = useState<{ open: boolean; place: HelpPlace | null; tab: HelpTab }>({
    open: false,
    place: null,
    tab: 'help',
  });
  const [chat, setChat] = useState(false);
  const agent = getUserInfo()?.loginRoleType === 'M';
  const gnCoding = nodeOfSearch(search);
  const here: HelpPlace | null = systemCoding ? { systemCoding, ...(gnCoding ? { gnCoding } : {}) } : null;
  const button = { ...buttonStyle, width: 40, justifyContent: 'center', fontSize: 18 } as CSSProperties;
  return (
    <>
      <Tooltip title="帮助">
        <button
          type="button"
          aria-label="帮助"
          data-testid="help-button"
          style={button}
          onClick={() => setHelp({ open: true, place: here, tab: 'help' })}
        >
          <QuestionCircleOutlined />
        </button>
      </Tooltip>
      <Tooltip title="在线客服">
        <button
          type="button"
          aria-label="在线客服"
          data-testid="service-button"
          style={button}
          onClick={() => setChat(true)}
        >
          <CustomerServiceOutlined />
        </button>
      </Tooltip>
      <HelpViewer
        open={help.open}
        place={help.place}
        tab={help.tab}
        title={`帮助中心${help.place?.systemCoding === systemCoding && systemName ? ` · ${systemName}` : ''}`}
        onTab={(tab) => setHelp((h) => ({ ...h, tab }))}
        onClose={() => setHelp((h) => ({ ...h, open: false }))}
      />
      <ServiceChat
        open={chat}
        onClose={() => setChat(false)}
        systemCoding={systemCoding ?? undefined}
        agent={agent}
        onHuman={agent ? () => void navigate(SERVICE_CONSOLE_PATH) : undefined}
        onOpenHelp={(place) => setHelp({ open: true, place, tab: 'faq' })}
      />
    </>
  );
}
