import { CloseOutlined, NotificationOutlined, PaperClipOutlined } from '@ant-design/icons';
import { type CurrentNotice, isSameSitePath, NOTICE_CLOSE_ONLY_MSG_ID } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { theme as antdTheme, Button, Modal, Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { CURRENT_NOTICES_KEY, currentNoticesQuery, dismissNotice, readNotice } from '../../api/systemNotices';
import { useLiveEvent } from '../../lib/live';
import { sanitizeHtml } from '../../lib/sanitize';
import './systemNotices.css';

export const NOTICE_ACK_TEXT = '我知道了';
export const NOTICE_DISMISS_TEXT = '不再显示';

/** The text of a notice's HTML (sanitised, parsed in an inert document) for the one-line bar. */
export function noticeText(html: string): string {
  const doc = new DOMParser().parseFromString(sanitizeHtml(html), 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** Seconds one pass of the bar takes: slow enough to read (about 8 characters a second), never under 15 s. */
export function marqueeSeconds(text: string): number {
  return Math.max(15, Math.round(text.length / 8) + 10);
}

/** §4: -99 only closes; any other msgId is reported as read first. */
export const closesOnly = (msgId: string | number) => String(msgId) === String(NOTICE_CLOSE_ONLY_MSG_ID);

/** Bars closed with × in this tab (they come back after a reload; 不再显示 keeps them away on the server). */
const closedThisTab = new Set<string>();

/**
 * The system notices of the signed-in user (screen 16, spec §4 Notice), mounted once in the header: type 1 scrolls in
 * a bar under the header (pauses on hover; × closes it for now, 不再显示 for good), type 2 opens a modal that closes
 * only on 我知道了, which reports the read first — so it is shown once. Re-read when a notice is published, changed
 * or withdrawn (the 'notice' live event) and after a reconnect ('resync').
 */
export function SystemNotices() {
  const queryClient = useQueryClient();
  const { data } = useQuery(currentNoticesQuery);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: CURRENT_NOTICES_KEY });
  useLiveEvent('notice', refresh);
  useLiveEvent('resync', refresh);
  // acted on in this tab, not yet gone from the list the server answers
  const [handled, setHandled] = useState<ReadonlySet<string>>(() => new Set(closedThisTab));
  const hide = (ids: string[]) =>
    setHandled((prev) => {
      const next = new Set(prev);
      for (const id of ids) next.add(id);
      return next;
    });

  const notices = data ?? [];
  const bars = notices.filter((n) => n.type === 1 && !handled.has(n.msgId));
  const modal = notices.find((n) => n.type === 2 && !handled.has(n.msgId)) ?? null;

  const acknowledge = async (n: CurrentNotice) => {
    hide([n.msgId]);
    if (!closesOnly(n.msgId)) await readNotice(n.msgId).catch(() => undefined);
    refresh();
  };
  const closeBars = () => {
    const ids = bars.map((n) => n.msgId);
    for (const id of ids) closedThisTab.add(id);
    hide(ids);
    for (const id of ids) if (!closesOnly(id)) void readNotice(id).catch(() => undefined);
  };
  const dismissBars = async () => {
    const ids = bars.map((n) => n.msgId);
    hide(ids);
    await Promise.all(ids.filter((id) => !closesOnly(id)).map((id) => dismissNotice(id).catch(() => undefined)));
    refresh();
  };

  return (
    <>
      {bars.length ? <NoticeBar notices={bars} onClose={closeBars} onDismiss={dismissBars} /> : null}
      <NoticeModal notice={modal} onAcknowledge={acknowledge} />
    </>
  );
}

function NoticeBar({
  notices,
  onClose,
  onDismiss,
}: {
  notices: CurrentNotice[];
  onClose: () => void;
  onDismiss: () => void;
}) {
  const { token } = antdTheme.useToken();
  const items = useMemo(
    () => notices.map((n) => ({ id: n.msgId, title: n.title, text: noticeText(n.msg) })),
    [notices],
  );
  const seconds = marqueeSeconds(items.map((i) => `${i.title}${i.text}`).join(''));
  return (
    <div
      className="ks-notice-bar"
      data-testid="notice-bar"
      role="marquee"
      aria-label="系统公告"
      style={{
        background: token.colorWarningBg,
        borderBottom: `1px solid ${token.colorWarningBorder}`,
        color: token.colorText,
      }}
    >
      <NotificationOutlined style={{ color: token.colorWarning, fontSize: 15 }} />
      <div
        className="ks-notice-viewport"
        title={items.map((i) => (i.text ? `${i.title}：${i.text}` : i.title)).join('；')}
      >
        <div className="ks-notice-track" data-testid="notice-marquee" style={{ animationDuration: `${seconds}s` }}>
          {items.map((i) => (
            <span key={i.id} className="ks-notice-item" data-testid="notice-bar-item">
              <strong>{i.title}</strong>
              {i.text ? `：${i.text}` : ''}
            </span>
          ))}
        </div>
      </div>
      <Button size="small" type="link" onClick={onDismiss} data-testid="notice-bar-dismiss" style={{ padding: 0 }}>
        {NOTICE_DISMISS_TEXT}
      </Button>
      <Tooltip title="关闭">
        <Button
          size="small"
          type="text"
          aria-label="关闭公告"
          icon={<CloseOutlined />}
          onClick={onClose}
          data-testid="notice-bar-close"
        />
      </Tooltip>
    </div>
  );
}

function NoticeModal({
  notice,
  onAcknowledge,
}: {
  notice: CurrentNotice | null;
  onAcknowledge: (n: CurrentNotice) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const html = useMemo(() => sanitizeHtml(notice?.msg), [notice?.msg]);
  const link = notice?.url && isSameSitePath(notice.url) ? notice.url : null;
  const ack = async () => {
    if (!notice || busy) return;
    setBusy(true);
    try {
      await onAcknowledge(notice);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={notice !== null}
      title={notice?.title}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      width={640}
      centered
      destroyOnHidden
      data-testid="notice-modal"
      footer={
        <Button type="primary" loading={busy} onClick={ack} data-testid="notice-ack">
          {NOTICE_ACK_TEXT}
        </Button>
      }
    >
      <div
        className="ks-notice-body"
        data-testid="notice-modal-body"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify (sanitizeHtml) in an inert document
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {link ? (
        <div style={{ marginTop: 12 }}>
          <PaperClipOutlined /> 附件：
          <a href={link} target="_blank" rel="noopener noreferrer" data-testid="notice-attachment">
            {notice?.urlName || '下载附件'}
          </a>
        </div>
      ) : null}
    </Modal>
  );
}
