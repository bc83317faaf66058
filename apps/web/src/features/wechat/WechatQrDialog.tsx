import { ReloadOutlined, WechatOutlined } from '@ant-design/icons';
import { WechatMsg, type WechatPurpose, type WechatQrcode } from '@ks/contracts';
import { Alert, Button, Modal, Result, Spin } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../api/request';
import { type ScanStatus, wechatQrcode, wechatScanStatus } from '../../api/wechat';

/** The page asks for the scan result this often while the dialog is open. */
export const POLL_MS = 2000;

export interface WechatQrDialogProps {
  open: boolean;
  purpose: WechatPurpose;
  onClose: () => void;
  /** a login ticket signed in (`login` set) or a bind ticket bound (`binding` set) */
  onDone: (status: ScanStatus) => void;
}

type View =
  | { kind: 'loading' }
  | { kind: 'qr'; ticket: WechatQrcode; hint: string }
  | { kind: 'ended'; ticket: WechatQrcode | null; message: string; type: 'warning' | 'error' };

const messageOf = (err: unknown) => (isApiError(err) ? err.message : '请求失败，请稍后再试');

/**
 * The WeChat QR dialog: a ticket's qrconnect page in a frame (WeChat's own QR; after the phone confirms, WeChat sends
 * the frame to the platform's callback), polled every 2 s until it is signed in / bound, expired, refused or failed.
 * Closing the dialog stops the polling.
 */
export function WechatQrDialog({ open, purpose, onClose, onDone }: WechatQrDialogProps) {
  const [view, setView] = useState<View>({ kind: 'loading' });
  // one generation per ticket: a poll answering after the dialog closed or the ticket was replaced is ignored
  const generation = useRef(0);
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;

  const start = useCallback(async () => {
    const gen = ++generation.current;
    setView({ kind: 'loading' });
    try {
      const ticket = await wechatQrcode(purpose);
      if (gen === generation.current) setView({ kind: 'qr', ticket, hint: '请使用微信扫描二维码' });
    } catch (err) {
      if (gen === generation.current) setView({ kind: 'ended', ticket: null, message: messageOf(err), type: 'error' });
    }
  }, [purpose]);

  useEffect(() => {
    if (!open) {
      generation.current++;
      return;
    }
    void start();
    return () => {
      generation.current++;
    };
  }, [open, start]);

  const ticket = view.kind === 'qr' ? view.ticket : null;
  useEffect(() => {
    if (!open || !ticket) return;
    const gen = generation.current;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      let s: ScanStatus;
      try {
        s = await wechatScanStatus(ticket.state, purpose);
      } catch (err) {
        if (gen === generation.current) setView({ kind: 'ended', ticket, message: messageOf(err), type: 'error' });
        return;
      }
      if (gen !== generation.current) return;
      if (s.status === 'waiting') {
        timer = setTimeout(() => void poll(), POLL_MS);
        return;
      }
      if (s.status === 'success' || s.status === 'bound') {
        generation.current++;
        onDoneRef.current(s);
        return;
      }
      setView({ kind: 'ended', ticket, message: s.message, type: s.status === 'unbound' ? 'error' : 'warning' });
    };
    timer = setTimeout(() => void poll(), POLL_MS);
    return () => {
      if (timer) clearTimeout(timer);
    };
  }, [open, ticket, purpose]);

  return (
    <Modal
      open={open}
      title={
        <span>
          <WechatOutlined style={{ color: '#07c160', marginInlineEnd: 8 }} />
          {purpose === 'login' ? '微信扫码登录' : '绑定微信'}
        </span>
      }
      footer={null}
      width={420}
      destroyOnHidden
      onCancel={onClose}
      data-testid="wechat-dialog"
    >
      {view.kind === 'loading' ? (
        <div style={{ height: 360, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Spin tip="正在生成二维码…">
            <div style={{ width: 120, height: 60 }} />
          </Spin>
        </div>
      ) : null}
      {view.kind === 'qr' ? (
        <div style={{ textAlign: 'center' }}>
          <iframe
            title="微信二维码"
            src={view.ticket.url}
            data-testid="wechat-frame"
            style={{ width: '100%', height: 360, border: '1px solid #f0f0f0', borderRadius: 8 }}
          />
          <div style={{ marginTop: 8, color: '#8a93a6', fontSize: 13 }} data-testid="wechat-hint">
            {view.hint}，二维码 5 分钟内有效。
            <a href={view.ticket.url} target="_blank" rel="noopener noreferrer">
              在新窗口打开
            </a>
          </div>
        </div>
      ) : null}
      {view.kind === 'ended' ? (
        <Result
          status={view.type === 'error' ? 'error' : 'warning'}
          title={<span data-testid="wechat-ended">{view.message}</span>}
          subTitle={
            view.message === WechatMsg.NOT_BOUND
              ? '请先用账号登录，在「用户中心 › 微信绑定」中绑定微信后再扫码登录。'
              : undefined
          }
          extra={
            <Button type="primary" icon={<ReloadOutlined />} onClick={() => void start()} data-testid="wechat-retry">
              刷新二维码
            </Button>
          }
        />
      ) : null}
      {purpose === 'bind' ? (
        <Alert type="info" showIcon style={{ marginTop: 12 }} title="绑定后可使用该微信扫码登录当前账号。" />
      ) : null}
    </Modal>
  );
}
