import { PaperClipOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import {
  EVAL_CLARIFY_MAX_DAYS,
  EVAL_CLARIFY_MIN_MINUTES,
  EVAL_CLARIFY_STATUS_LABELS,
  EVAL_MSG,
  type EvalBidderOutcome,
  type EvalClarification,
  type EvalRoom,
  fileUrlOf,
} from '@ks/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, DatePicker, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { type ReactNode, useState } from 'react';
import { evalClarify, evalClarifyAnswer, evalClarifyRevoke, evalOutcomeKey, setOutcome } from '../../api/evaluation';
import { downloadStoredFile } from '../../api/files';
import { textRules } from '../../components/admin';
import { AttachmentUploader } from '../../components/upload/AttachmentUploader';
import { type AttachmentFile, uploadedAttachment } from '../../components/upload/types';
import { formatDateTime } from '../../lib/format';
import { testIdProps, useRoomAction } from './parts';

/**
 * 评标澄清 (issue 17): the committee's written questions to a bidder — asked and withdrawn by the chair in the room's
 * 投标文件 step, answered by the bidder (text and files) in the opening hall's 评标结果 card before the deadline.
 */

const MINUTE = 60_000;

function FileLinks({ files }: { files: EvalClarification['files'] }) {
  if (!files.length) return null;
  return (
    <Space size={4} wrap style={{ marginTop: 4 }}>
      {files.map((f) => (
        <Button
          key={f.id}
          type="link"
          size="small"
          icon={<PaperClipOutlined />}
          style={{ padding: 0 }}
          onClick={() => void downloadStoredFile({ url: fileUrlOf(f.id), fileName: f.name }).catch(() => undefined)}
          data-testid={`eval-clarify-file-${f.id}`}
        >
          {f.name}
        </Button>
      ))}
    </Space>
  );
}

/** The questions, with their answers; `action` adds the 操作 column (撤回, 答复). */
export function ClarificationsTable({
  items,
  showBidder,
  action,
  emptyText,
}: {
  items: EvalClarification[];
  showBidder: boolean;
  action?: (c: EvalClarification) => ReactNode;
  emptyText: string;
}) {
  return (
    <Table<EvalClarification>
      rowKey="id"
      size="small"
      bordered
      pagination={false}
      dataSource={items}
      scroll={{ x: 900 }}
      locale={{ emptyText }}
      data-testid="eval-clarifications"
      onRow={(c) => ({ 'data-testid': `eval-clarify-row-${c.id}` }) as object}
      columns={[
        ...(showBidder ? [{ title: '投标人', dataIndex: 'enterpriseName', width: 180 }] : []),
        {
          title: '需澄清的问题',
          dataIndex: 'question',
          render: (v: string, c) => (
            <>
              <div style={{ whiteSpace: 'pre-wrap' }}>{v}</div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {c.askedBy} · {formatDateTime(c.askedAt)}
              </Typography.Text>
            </>
          ),
        },
        {
          title: '答复截止',
          dataIndex: 'deadline',
          width: 140,
          render: (v: string) => formatDateTime(v),
        },
        {
          title: '状态',
          dataIndex: 'status',
          width: 100,
          render: (v: EvalClarification['status']) => (
            <Tag color={EVAL_CLARIFY_STATUS_LABELS[v].color}>{EVAL_CLARIFY_STATUS_LABELS[v].text}</Tag>
          ),
        },
        {
          title: '答复',
          key: 'answer',
          render: (_, c) =>
            c.status === 'answered' ? (
              <>
                <div style={{ whiteSpace: 'pre-wrap' }} data-testid={`eval-clarify-answer-${c.id}`}>
                  {c.answer}
                </div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {c.answeredBy} · {formatDateTime(c.answeredAt)}
                </Typography.Text>
                <FileLinks files={c.files} />
              </>
            ) : c.status === 'revoked' ? (
              <Typography.Text type="secondary">撤回原因：{c.revokeReason}</Typography.Text>
            ) : (
              <Typography.Text type="secondary">—</Typography.Text>
            ),
        },
        ...(action ? [{ title: '操作', key: 'ops', width: 90, fixed: 'right' as const, render: action }] : []),
      ]}
    />
  );
}

interface AskForm {
  bidId: string;
  question: string;
  deadline: Dayjs;
}

/** 发起澄清: the chair picks a bid, writes the question and sets the deadline (10 minutes to 7 days ahead). */
export function AskClarifyDialog({ room, open, onClose }: { room: EvalRoom; open: boolean; onClose: () => void }) {
  const sectionId = room.section.id;
  const [form] = Form.useForm<AskForm>();
  const ask = useRoomAction(sectionId, evalClarify, '澄清要求已发出', onClose);
  const inRange = (d: Dayjs | undefined) => {
    if (!d) return false;
    const ms = d.valueOf() - Date.now();
    return ms >= EVAL_CLARIFY_MIN_MINUTES * MINUTE && ms <= EVAL_CLARIFY_MAX_DAYS * 1440 * MINUTE;
  };
  return (
    <Modal
      open={open}
      title="发起评标澄清"
      okText="发出"
      cancelText="取消"
      onCancel={onClose}
      confirmLoading={ask.isPending}
      okButtonProps={testIdProps('eval-clarify-ask-ok')}
      onOk={() =>
        form.validateFields().then(
          (v) =>
            ask.mutate({
              sectionId,
              bidId: v.bidId,
              question: v.question.trim(),
              deadline: v.deadline.second(0).millisecond(0).toISOString(),
            }),
          () => undefined,
        )
      }
      destroyOnHidden
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title="澄清以书面形式发给投标人，不得暗示或诱导投标人作出澄清；投标人的澄清不得超出投标文件的范围或改变投标文件的实质性内容。发出、答复与撤回均记入开评标日志。"
      />
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ deadline: dayjs().add(2, 'hour').startOf('minute') }}
      >
        <Form.Item name="bidId" label="投标人" rules={[{ required: true, message: '请选择投标人' }]}>
          <Select
            placeholder="选择要求澄清的投标人"
            options={[...room.bids]
              .sort((a, b) => a.readOrder - b.readOrder)
              .map((b) => ({ value: b.bidId, label: b.enterpriseName }))}
            data-testid="eval-clarify-bid"
          />
        </Form.Item>
        <Form.Item name="question" label="需澄清的问题" rules={textRules('需澄清的问题', 5, 2000)}>
          <Input.TextArea rows={4} maxLength={2000} showCount data-testid="eval-clarify-question" />
        </Form.Item>
        <Form.Item
          name="deadline"
          label="答复截止时间"
          rules={[
            { required: true, message: '请选择答复截止时间' },
            {
              validator: (_: unknown, v: Dayjs | undefined) =>
                !v || inRange(v) ? Promise.resolve() : Promise.reject(new Error(EVAL_MSG.clarifyDeadline)),
            },
          ]}
        >
          <DatePicker
            showTime={{ format: 'HH:mm', minuteStep: 5 }}
            format="YYYY-MM-DD HH:mm"
            disabledDate={(d) => d.isBefore(dayjs(), 'day') || d.isAfter(dayjs().add(EVAL_CLARIFY_MAX_DAYS, 'day'))}
            data-testid="eval-clarify-deadline"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function RevokeDialog({
  room,
  target,
  onClose,
}: {
  room: EvalRoom;
  target: EvalClarification | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ reason: string }>();
  const revoke = useRoomAction(room.section.id, evalClarifyRevoke, '澄清要求已撤回', onClose);
  return (
    <Modal
      open={Boolean(target)}
      title={`撤回对${target?.enterpriseName ?? ''}的澄清要求`}
      okText="撤回"
      cancelText="取消"
      onCancel={onClose}
      confirmLoading={revoke.isPending}
      okButtonProps={{ ...testIdProps('eval-clarify-revoke-ok'), danger: true }}
      onOk={() =>
        form.validateFields().then(
          (v) => target && revoke.mutate({ id: target.id, reason: v.reason.trim() }),
          () => undefined,
        )
      }
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="reason" label="撤回原因" rules={textRules('撤回原因', 2, 500)}>
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="eval-clarify-revoke-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 评标澄清 in the room (the 投标文件 step): every question of the section; the chair asks and withdraws. */
export function ClarifyCard({ room }: { room: EvalRoom }) {
  const [asking, setAsking] = useState(false);
  const [revoking, setRevoking] = useState<EvalClarification | null>(null);
  const chair = room.actions.clarify;
  if (!chair && room.clarifications.length === 0 && room.status !== 'scoring') return null;
  return (
    <Card
      size="small"
      title="评标澄清"
      style={{ marginTop: 12 }}
      data-testid="eval-clarify-card"
      extra={
        chair && (
          <Button
            type="primary"
            size="small"
            icon={<QuestionCircleOutlined />}
            disabled={room.bids.length === 0}
            onClick={() => setAsking(true)}
            data-testid="eval-clarify-ask"
          >
            发起澄清
          </Button>
        )
      }
    >
      <ClarificationsTable
        items={room.clarifications}
        showBidder
        emptyText={chair ? '尚未要求投标人澄清；需要时由组长代表评标委员会发起' : '没有评标澄清'}
        action={
          chair
            ? (c) =>
                c.status === 'asked' ? (
                  <Button
                    type="link"
                    size="small"
                    danger
                    onClick={() => setRevoking(c)}
                    data-testid={`eval-clarify-revoke-${c.id}`}
                  >
                    撤回
                  </Button>
                ) : null
            : undefined
        }
      />
      <AskClarifyDialog room={room} open={asking} onClose={() => setAsking(false)} />
      <RevokeDialog room={room} target={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}

/** 答复澄清: the bidder's written answer and up to 5 files of its own; once, before the deadline. */
function AnswerDialog({
  sectionId,
  target,
  onClose,
}: {
  sectionId: string;
  target: EvalClarification | null;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ answer: string }>();
  const [files, setFiles] = useState<AttachmentFile[]>([]);
  const [busy, setBusy] = useState(false);
  const send = useMutation({
    mutationFn: evalClarifyAnswer,
    onSuccess: (outcome: EvalBidderOutcome) => {
      setOutcome(qc, outcome);
      void message.success('澄清已答复');
      setFiles([]);
      onClose();
    },
    onError: () => void qc.invalidateQueries({ queryKey: evalOutcomeKey(sectionId) }),
  });
  return (
    <Modal
      open={Boolean(target)}
      title="答复评标澄清"
      okText="提交答复"
      cancelText="取消"
      onCancel={onClose}
      confirmLoading={send.isPending}
      okButtonProps={{ ...testIdProps('eval-clarify-answer-ok'), disabled: busy }}
      onOk={() =>
        form.validateFields().then(
          (v) => target && send.mutate({ id: target.id, answer: v.answer.trim(), fileIds: files.map((f) => f.fileId) }),
          () => undefined,
        )
      }
      destroyOnHidden
      width={640}
    >
      {target && (
        <Space orientation="vertical" size={8} style={{ width: '100%', marginBottom: 8 }}>
          <Typography.Text type="secondary">评标委员会的问题（{target.askedBy} 发出）：</Typography.Text>
          <Typography.Paragraph
            style={{ whiteSpace: 'pre-wrap', margin: 0 }}
            data-testid="eval-clarify-answer-question"
          >
            {target.question}
          </Typography.Paragraph>
          <Alert
            type="warning"
            showIcon
            title={`请于 ${formatDateTime(target.deadline)} 前答复；答复提交后不能修改。澄清不得超出投标文件的范围或改变投标文件的实质性内容。`}
          />
        </Space>
      )}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="answer" label="澄清内容" rules={textRules('澄清内容', 2, 4000)}>
          <Input.TextArea rows={5} maxLength={4000} showCount data-testid="eval-clarify-answer-text" />
        </Form.Item>
        <Form.Item label="附件（可选，最多 5 个）">
          <AttachmentUploader
            files={files}
            target={{}}
            max={5}
            onBusyChange={setBusy}
            onUploaded={(f, local) => setFiles((old) => [...old, uploadedAttachment(f, local)])}
            onRemove={(f) => setFiles((old) => old.filter((x) => x.fileId !== f.fileId))}
            testId="eval-clarify-answer-files"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The bidder's questions in the 评标结果 card, with 答复 while a question waits for its answer. */
export function BidderClarifications({ outcome }: { outcome: EvalBidderOutcome }) {
  const [answering, setAnswering] = useState<EvalClarification | null>(null);
  if (outcome.clarifications.length === 0) return null;
  const waiting = outcome.clarifications.filter((c) => c.status === 'asked').length;
  return (
    <Space orientation="vertical" size={8} style={{ width: '100%', marginBottom: 12 }}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        评标澄清
      </Typography.Title>
      {waiting > 0 && (
        <Alert
          type="warning"
          showIcon
          title={`评标委员会要求贵单位澄清 ${waiting} 个问题，请在答复截止时间前答复`}
          data-testid="eval-clarify-waiting"
        />
      )}
      <ClarificationsTable
        items={outcome.clarifications}
        showBidder={false}
        emptyText="没有评标澄清"
        action={(c) =>
          c.status === 'asked' ? (
            <Button type="link" size="small" onClick={() => setAnswering(c)} data-testid={`eval-clarify-reply-${c.id}`}>
              答复
            </Button>
          ) : null
        }
      />
      <AnswerDialog sectionId={outcome.section.id} target={answering} onClose={() => setAnswering(null)} />
    </Space>
  );
}
