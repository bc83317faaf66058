import { MESSAGE_TEXT, type SentMessage } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Drawer, Form, Input, Progress, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import {
  publishMessage,
  receiptsQuery,
  recipientsQuery,
  SENT_KEY,
  type SentFilters,
  sentMessagesQuery,
} from '../../api/messages';
import {
  ActionLink,
  CreateButton,
  dateTimeColumn,
  FilterBar,
  FormDialog,
  KeywordFilter,
  ListCard,
  LoadFailure,
  PageFrame,
  RowActions,
  ServerTable,
  useEditDialog,
  useRowDialog,
  useServerList,
} from '../../components/admin';
import { LazyRichTextEditor } from '../../components/editor/LazyRichTextEditor';
import { formatTime } from './format';

const TITLE = '消息发布';
type PublishValues = { title: string; body: string; users: string[]; roles: string[] };

/**
 * 消息发布 `/system/messagePublish` (administrators): the messages sent, with how many of their recipients read them,
 * a receipts drawer (who received it, who read it and when), and 发布消息 — a title, a body and the recipients (users
 * and roles); it reaches each recipient's message centre at once.
 */
export default function MessagePublishPage() {
  const view = useServerList({
    initial: { pageNum: 1, pageSize: 10 } as SentFilters,
    query: sentMessagesQuery,
    refreshKey: SENT_KEY,
  });
  const dialog = useEditDialog<null>(view.refresh);
  const receipts = useRowDialog<SentMessage>(view.refresh);

  const columns = [
    {
      title: '标题',
      dataIndex: 'title',
      ellipsis: true,
      render: (t: string) => <span data-testid="sent-title">{t}</span>,
    },
    {
      title: '接收对象',
      key: 'to',
      width: 280,
      render: (_: unknown, r: SentMessage) => (
        <span>
          {r.roleNames.map((n) => (
            <Tag key={`r:${n}`} color="blue">
              {n}
            </Tag>
          ))}
          {r.userNames.map((n) => (
            <Tag key={`u:${n}`}>{n}</Tag>
          ))}
        </span>
      ),
    },
    {
      title: '已读',
      key: 'read',
      width: 160,
      render: (_: unknown, r: SentMessage) => (
        <span data-testid="sent-read">
          {r.readCount}/{r.recipients}
          <Progress
            percent={r.recipients ? Math.round((r.readCount / r.recipients) * 100) : 0}
            size="small"
            showInfo={false}
            style={{ width: 80, marginInlineStart: 8, display: 'inline-block' }}
          />
        </span>
      ),
    },
    { title: '发送人', dataIndex: 'senderName', width: 110 },
    dateTimeColumn('发送时间', 'createdAt'),
    {
      title: '操作',
      key: 'actions',
      width: 100,
      render: (_: unknown, r: SentMessage) => (
        <RowActions>
          <ActionLink onClick={() => receipts.open(r)} testId="sent-receipts">
            回执
          </ActionLink>
        </RowActions>
      ),
    },
  ];

  return (
    <PageFrame section={{ title: '系统管理' }} title={TITLE}>
      {view.failed ? (
        <LoadFailure error={view.list.error!} what={TITLE} />
      ) : (
        <ListCard
          title={TITLE}
          view={view}
          actions={
            <CreateButton onClick={dialog.create} testId="message-publish">
              发布消息
            </CreateButton>
          }
        >
          <FilterBar>
            <KeywordFilter
              placeholder="标题"
              onSearch={(keyword) => view.setFilter({ keyword })}
              testId="sent-keyword"
            />
          </FilterBar>
          <ServerTable<SentMessage, SentFilters> view={view} columns={columns} testId="sent-table" scrollX={900} />
        </ListCard>
      )}
      <PublishDialog open={dialog.open} onClose={dialog.props.onClose} onSaved={dialog.props.onSaved} />
      <ReceiptsDrawer message={receipts.row} onClose={receipts.close} />
    </PageFrame>
  );
}

function PublishDialog({ open, onClose, onSaved }: { open: boolean; onClose: () => void; onSaved: () => void }) {
  const [keyword, setKeyword] = useState('');
  const options = useQuery({ ...recipientsQuery(keyword), enabled: open });
  const [form] = Form.useForm<PublishValues>();
  return (
    <FormDialog<PublishValues>
      open={open}
      title="发布消息"
      form={form}
      values={() => ({ title: '', body: '', users: [], roles: [] })}
      fields={['title', 'body', 'users', 'roles']}
      submit={(v) => publishMessage({ ...v, users: v.users ?? [], roles: v.roles ?? [] })}
      onClose={onClose}
      onSaved={onSaved}
      successText={MESSAGE_TEXT.sent}
      okText="发布"
      testId="message-publish-ok"
      dialogTestId="message-publish-dialog"
      width={760}
    >
      <Form.Item
        name="title"
        label="标题"
        rules={[{ required: true, whitespace: true, message: MESSAGE_TEXT.titleRequired }]}
      >
        <Input maxLength={200} showCount data-testid="message-title-input" />
      </Form.Item>
      <Form.Item
        name="roles"
        label="接收角色"
        extra="发给所选角色当前的全部成员"
        dependencies={['users']}
        rules={[
          {
            validator: async (_, roles: string[] | undefined) => {
              if (!(roles?.length || form.getFieldValue('users')?.length)) throw new Error(MESSAGE_TEXT.noRecipients);
            },
          },
        ]}
      >
        <Select
          mode="multiple"
          allowClear
          placeholder="选择角色"
          options={(options.data?.roles ?? []).map((r) => ({ value: r.code, label: r.name }))}
          data-testid="message-roles"
        />
      </Form.Item>
      <Form.Item name="users" label="接收人" dependencies={['roles']}>
        <Select
          mode="multiple"
          allowClear
          showSearch
          filterOption={false}
          onSearch={setKeyword}
          placeholder="按姓名或账号搜索"
          options={(options.data?.users ?? []).map((u) => ({ value: u.id, label: `${u.userName}（${u.logValue}）` }))}
          data-testid="message-users"
        />
      </Form.Item>
      <Form.Item
        name="body"
        label="内容"
        rules={[{ required: true, whitespace: true, message: MESSAGE_TEXT.bodyRequired }]}
      >
        <LazyRichTextEditor data-testid="message-body-editor" height={260} />
      </Form.Item>
    </FormDialog>
  );
}

function ReceiptsDrawer({ message, onClose }: { message: SentMessage | null; onClose: () => void }) {
  const q = useQuery({ ...receiptsQuery(message?.id ?? ''), enabled: message !== null });
  const rows = q.data ?? [];
  const read = rows.filter((r) => r.readAt).length;
  return (
    <Drawer
      open={message !== null}
      onClose={onClose}
      width={560}
      title={`回执：${message?.title ?? ''}`}
      data-testid="receipts-drawer"
    >
      <Typography.Paragraph type="secondary" data-testid="receipts-summary">
        共 {rows.length} 位接收人，已读 {read} 位，未读 {rows.length - read} 位
      </Typography.Paragraph>
      <Table
        size="small"
        rowKey="userId"
        loading={q.isLoading}
        dataSource={rows}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        data-testid="receipts-table"
        columns={[
          { title: '姓名', dataIndex: 'userName' },
          { title: '账号', dataIndex: 'logValue' },
          {
            title: '状态',
            key: 'state',
            width: 80,
            render: (_, r) =>
              r.readAt ? (
                <Tag color="green" data-testid={`receipt-${r.logValue}`}>
                  已读
                </Tag>
              ) : (
                <Tag data-testid={`receipt-${r.logValue}`}>未读</Tag>
              ),
          },
          {
            title: '阅读时间',
            dataIndex: 'readAt',
            width: 150,
            render: (v: string | null) => (v ? formatTime(v) : '—'),
          },
        ]}
      />
    </Drawer>
  );
}
