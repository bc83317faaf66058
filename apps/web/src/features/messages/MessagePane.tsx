import { MESSAGE_KIND_LABELS, MESSAGE_PAGE_SIZE, type MessageItem, type MessageKind } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, List, Modal, Pagination, Segmented, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import {
  MESSAGE_COUNTS_KEY,
  MESSAGE_LIST_KEY,
  messageListQuery,
  readMessages,
  rejectedMsgQuery,
} from '../../api/messages';
import { Empty } from '../../components/placeholders/Empty';
import { sanitizeHtml } from '../../lib/sanitize';
import { formatTime } from './format';

const KIND_COLORS: Record<MessageKind, string> = { result: 'green', rejected: 'red', admin: 'blue' };
type View = 'all' | 'rejected';

/**
 * 消息: the user's messages, newest first, unread marked; opening one marks it read and opens its record (or, for a
 * message about no record, shows it); 全部已读 marks them all. 驳回 lists the rejections of the user's records
 * (`rejected-msg`) with their reasons.
 */
export function MessagePane({ onOpen, unread }: { onOpen: (path: string) => void; unread: number }) {
  const queryClient = useQueryClient();
  const [view, setView] = useState<View>('all');
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<MessageItem | null>(null);
  const all = useQuery({ ...messageListQuery(page, MESSAGE_PAGE_SIZE), enabled: view === 'all' });
  const rejected = useQuery({ ...rejectedMsgQuery(page, MESSAGE_PAGE_SIZE), enabled: view === 'rejected' });
  const current = view === 'all' ? all : rejected;
  const records: MessageItem[] =
    view === 'all'
      ? (all.data?.records ?? [])
      : (rejected.data?.records ?? []).map((r) => ({
          id: r.id,
          kind: 'rejected' as const,
          title: r.title,
          body: '',
          reason: r.reason,
          senderName: null,
          createdAt: r.createdAt,
          readAt: r.readAt,
          path: r.path,
        }));
  const total = current.data?.total ?? 0;

  const afterRead = () => {
    void queryClient.invalidateQueries({ queryKey: MESSAGE_LIST_KEY });
    void queryClient.invalidateQueries({ queryKey: MESSAGE_COUNTS_KEY });
  };
  const open = async (m: MessageItem) => {
    if (!m.readAt) void readMessages({ ids: [m.id] }).then(afterRead, () => undefined);
    if (m.path && m.kind !== 'admin') onOpen(m.path);
    else setShown(m);
  };
  const readAll = async () => {
    await readMessages({ all: true });
    afterRead();
  };

  return (
    <div data-testid="message-pane">
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 12 }}>
        <Segmented<View>
          size="small"
          value={view}
          onChange={(v) => {
            setView(v);
            setPage(1);
          }}
          options={[
            { value: 'all', label: <span data-testid="message-view-all">全部</span> },
            { value: 'rejected', label: <span data-testid="message-view-rejected">驳回</span> },
          ]}
        />
        <Button size="small" type="link" disabled={unread === 0} onClick={readAll} data-testid="message-read-all">
          全部已读
        </Button>
      </div>
      {current.isLoading ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : total === 0 ? (
        <Empty testId="message-empty" />
      ) : (
        <>
          <List
            size="small"
            dataSource={records}
            renderItem={(m) => (
              <List.Item
                key={m.id}
                data-testid="message-item"
                data-unread={m.readAt ? 'false' : 'true'}
                onClick={() => void open(m)}
                className="ks-message-row"
                style={{ cursor: 'pointer', paddingInline: 8, display: 'block' }}
              >
                <div style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
                  <Badge status={m.readAt ? 'default' : 'processing'} data-testid="message-dot" />
                  <Tag color={KIND_COLORS[m.kind]} style={{ marginInlineEnd: 0, flex: 'none' }}>
                    {MESSAGE_KIND_LABELS[m.kind]}
                  </Tag>
                  <Typography.Text
                    strong={!m.readAt}
                    ellipsis
                    style={{ minWidth: 0, flex: 1 }}
                    data-testid="message-title"
                  >
                    {m.title}
                  </Typography.Text>
                </div>
                {m.reason ? (
                  <Typography.Paragraph
                    type="danger"
                    ellipsis={{ rows: 2 }}
                    style={{ margin: '4px 0 0', fontSize: 12 }}
                    data-testid="message-reason"
                  >
                    驳回原因：{m.reason}
                  </Typography.Paragraph>
                ) : null}
                <div style={{ display: 'flex', justifyContent: 'space-between', fontSize: 12, marginTop: 4 }}>
                  <Typography.Text type="secondary">{m.senderName ?? '系统'}</Typography.Text>
                  <Typography.Text type="secondary">{formatTime(m.createdAt)}</Typography.Text>
                </div>
              </List.Item>
            )}
          />
          <Pagination
            data-testid="message-pager"
            size="small"
            align="center"
            style={{ marginTop: 12 }}
            current={page}
            pageSize={MESSAGE_PAGE_SIZE}
            total={total}
            showLessItems
            showSizeChanger={false}
            onChange={setPage}
          />
        </>
      )}
      <Modal
        open={shown !== null}
        title={shown?.title}
        onCancel={() => setShown(null)}
        width={560}
        footer={[
          shown?.path ? (
            <Button
              key="go"
              onClick={() => {
                const p = shown.path!;
                setShown(null);
                onOpen(p);
              }}
            >
              查看
            </Button>
          ) : null,
          <Button key="ok" type="primary" onClick={() => setShown(null)} data-testid="message-modal-close">
            我知道了
          </Button>,
        ]}
        data-testid="message-modal"
      >
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {shown?.senderName ?? '系统'} · {formatTime(shown?.createdAt)}
        </Typography.Text>
        <div
          className="ks-message-body"
          data-testid="message-body"
          style={{ marginTop: 12, maxHeight: 400, overflow: 'auto' }}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server and again here
          dangerouslySetInnerHTML={{ __html: sanitizeHtml(shown?.body) }}
        />
      </Modal>
    </div>
  );
}
