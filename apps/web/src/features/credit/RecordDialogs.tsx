import {
  CREDIT_MESSAGES,
  CREDIT_VALIDITY_MAX_MONTHS,
  creditRecordProblems,
  previewKind,
  scoreText,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Drawer,
  Form,
  Input,
  InputNumber,
  List,
  Modal,
  Skeleton,
  Space,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { applySaveError, decisionFooter, SaveErrorAlert, useRowDialog } from '../../components/admin';
import { AttachmentUploader } from '../../components/upload/AttachmentUploader';
import { useActionLock } from '../../engine/list/hooks';
import { ENGINE_TEXTS } from '../../engine/model';
import {
  auditRecord,
  type CreditRecord,
  type CreditRetrieveResult,
  descriptionQuery,
  fileUrl,
  revokeRecord,
} from './api';
import { ConductTag, StatusTag, signedPoints } from './shared';

/** §9: the review suggestion has 5 rows. */
const SUGGESTION_ROWS = 5;
const TEXT_MAX = 500;

/** The record's evidence files as the uploader shows them (read-only). */
export const evidenceOf = (r: CreditRecord) =>
  r.files.map((f) => ({
    fileId: f.fileId,
    fileName: f.fileName,
    fileSize: f.fileSize,
    url: fileUrl(f.fileId),
    preview: previewKind(f.fileName),
    annexNo: null,
  }));

const when = (at: string | null, by: string | null) =>
  at ? `${at.slice(0, 16).replace('T', ' ')}${by ? `（${by}）` : ''}` : '—';

/** A record in full: its item, values, evidence and each step (who, when, the suggestion or reason). */
export function RecordDetailDrawer({ record, onClose }: { record: CreditRecord | null; onClose: () => void }) {
  const r = record;
  return (
    <Drawer
      open={Boolean(r)}
      onClose={onClose}
      size={720}
      title="信用记录详情"
      destroyOnHidden
      data-testid="record-detail"
    >
      {r ? (
        <>
          <Descriptions column={2} size="small" bordered>
            <Descriptions.Item label="信用主体" span={2}>
              {r.subjectName}
              {r.subjectKind === 'person' ? `（${r.enterpriseName}）` : ''}
            </Descriptions.Item>
            <Descriptions.Item label="信用标准" span={2}>
              <Space>
                {r.xxGrouping} / {r.standardName}
                <ConductTag conduct={r.conduct} />
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label="事由" span={2}>
              {r.title}
            </Descriptions.Item>
            <Descriptions.Item label="分值">
              {scoreText(r.score)}（最高 {scoreText(r.highest)}，计 {signedPoints(r.conduct, r.points)}）
            </Descriptions.Item>
            <Descriptions.Item label="状态">
              <StatusTag status={r.status} text={r.statusText} />
              {r.counting ? <Typography.Text type="success">计分中</Typography.Text> : null}
            </Descriptions.Item>
            <Descriptions.Item label="开始时间">{r.startTime}</Descriptions.Item>
            <Descriptions.Item label="结束时间">{r.endTime}</Descriptions.Item>
            <Descriptions.Item label="认定单位">{r.issuer ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="来源">{r.sourceText}</Descriptions.Item>
            <Descriptions.Item label="备注" span={2}>
              {r.remark ?? '—'}
            </Descriptions.Item>
            <Descriptions.Item label="申报">{when(r.createdAt, r.createdBy)}</Descriptions.Item>
            <Descriptions.Item label="提交">{when(r.submittedAt, r.submittedBy)}</Descriptions.Item>
            <Descriptions.Item label="审核">{when(r.auditedAt, r.auditedBy)}</Descriptions.Item>
            <Descriptions.Item label="审核建议">
              <span data-testid="record-detail-suggestion">{r.auditSuggestion ?? '—'}</span>
            </Descriptions.Item>
            {r.status === 'revoked' ? (
              <>
                <Descriptions.Item label="撤销">{when(r.revokedAt, r.revokedBy)}</Descriptions.Item>
                <Descriptions.Item label="撤销原因">{r.revokeReason ?? '—'}</Descriptions.Item>
              </>
            ) : null}
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            证明材料
          </Typography.Title>
          {r.source === 'retrieved' ? (
            <Typography.Paragraph type="secondary">来自平台已公开的认定结果：该认定即为证明。</Typography.Paragraph>
          ) : null}
          <AttachmentUploader files={evidenceOf(r)} target={{}} readOnly testId="record-detail-files" />
        </>
      ) : null}
    </Drawer>
  );
}

/**
 * 审核 (§4): 通过 or 驳回 with a review suggestion (5 rows; 驳回 needs one: 请填写审核建议); the reviewer may correct the
 * score within the item's highest (the shorter §5 message). Each decision is confirmed first; buttons lock for 1 s.
 */
export function CreditAuditDialog({
  record,
  onClose,
  onDone,
}: {
  record: CreditRecord | null;
  onClose: () => void;
  onDone: (r: CreditRecord) => void;
}) {
  const { modal, message } = App.useApp();
  const [form] = Form.useForm<{ suggestion?: string; score?: number | null }>();
  const [busy, setBusy] = useState<'pass' | 'reject' | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const { locked, run } = useActionLock();

  useEffect(() => {
    if (record) {
      form.resetFields();
      form.setFieldsValue({ score: record.score });
      setBusy(null);
      setErrors([]);
    }
  }, [record, form]);

  const scoreProblem = (score: number | null | undefined) =>
    record
      ? creditRecordProblems(
          { score, startTime: record.startTime, endTime: null },
          { highest: record.highest, validityMonths: CREDIT_VALIDITY_MAX_MONTHS },
          { review: true },
        ).score
      : undefined;

  const decide = (pass: boolean) =>
    run(pass ? 'pass' : 'reject', () => {
      if (!record) return;
      const suggestion = String(form.getFieldValue('suggestion') ?? '').trim();
      const score = form.getFieldValue('score') as number | null | undefined;
      if (!pass && !suggestion) {
        form.setFields([{ name: 'suggestion', errors: [CREDIT_MESSAGES.rejectNeedsSuggestion] }]);
        return;
      }
      const sp = scoreProblem(score);
      if (sp) {
        form.setFields([{ name: 'score', errors: [sp] }]);
        return;
      }
      modal.confirm({
        title: '提示',
        content: pass ? ENGINE_TEXTS.confirmPass : ENGINE_TEXTS.confirmReject,
        okText: '确定',
        cancelText: '取消',
        okButtonProps: { danger: !pass, 'data-testid': 'audit-confirm-ok' } as never,
        onOk: async () => {
          setBusy(pass ? 'pass' : 'reject');
          setErrors([]);
          try {
            const done = await auditRecord(record, {
              pass,
              suggestion: suggestion || undefined,
              score: score !== record.score && score !== null && score !== undefined ? score : undefined,
            });
            void message.success(ENGINE_TEXTS.done);
            onDone(done);
          } catch (err) {
            setErrors(applySaveError(err, form, ['suggestion', 'score']));
          } finally {
            setBusy(null);
          }
        },
      });
    });

  return (
    <Modal
      open={Boolean(record)}
      title="审核信用记录"
      width={600}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
      data-testid="credit-audit"
      footer={decisionFooter({ busy, locked, onClose, onDecide: decide })}
    >
      {record ? (
        <>
          <Descriptions column={1} size="small" style={{ marginBottom: 12 }}>
            <Descriptions.Item label="信用主体">{record.subjectName}</Descriptions.Item>
            <Descriptions.Item label="信用标准">
              {record.xxGrouping} / {record.standardName} <ConductTag conduct={record.conduct} />
            </Descriptions.Item>
            <Descriptions.Item label="事由">{record.title}</Descriptions.Item>
            <Descriptions.Item label="有效期">
              {record.startTime} 至 {record.endTime}
            </Descriptions.Item>
          </Descriptions>
          <AttachmentUploader files={evidenceOf(record)} target={{}} readOnly testId="audit-files" />
          <SaveErrorAlert lines={errors} testId="audit-error" />
          <Form form={form} layout="vertical" style={{ marginTop: 12 }} data-testid="audit-form">
            <Form.Item
              name="score"
              label={`分值（最高 ${scoreText(record.highest)} 分，可按认定结果修正）`}
              style={{ marginBottom: 12 }}
            >
              <InputNumber
                precision={2}
                style={{ width: 180 }}
                data-testid="audit-score"
                onBlur={() => {
                  const sp = scoreProblem(form.getFieldValue('score'));
                  // §5: refused, said and cleared
                  if (sp) form.setFields([{ name: 'score', value: null, errors: [sp] }]);
                }}
              />
            </Form.Item>
            <Form.Item name="suggestion" label="审核建议" extra="驳回时必须填写审核建议" style={{ marginBottom: 0 }}>
              <Input.TextArea
                rows={SUGGESTION_ROWS}
                maxLength={TEXT_MAX}
                showCount
                placeholder="请输入审核建议"
                data-testid="audit-suggestion"
                onChange={() => form.setFields([{ name: 'suggestion', errors: [] }])}
              />
            </Form.Item>
          </Form>
        </>
      ) : null}
    </Modal>
  );
}

/** 撤销 a passed record (reviewers): the reason is required; confirmed; the subject is regraded. */
export function RevokeDialog({
  record,
  onClose,
  onDone,
}: {
  record: CreditRecord | null;
  onClose: () => void;
  onDone: (r: CreditRecord) => void;
}) {
  const { modal, message } = App.useApp();
  const [form] = Form.useForm<{ reason?: string }>();
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (record) {
      form.resetFields();
      setErrors([]);
    }
  }, [record, form]);

  const confirm = () => {
    if (!record) return;
    const reason = String(form.getFieldValue('reason') ?? '').trim();
    if (!reason) {
      form.setFields([{ name: 'reason', errors: [CREDIT_MESSAGES.revokeNeedsReason] }]);
      return;
    }
    modal.confirm({
      title: '提示',
      content: `确认撤销「${record.title}」？撤销后该记录不再计分，${record.subjectName}的信用等级将重新评定。`,
      okText: '确定',
      cancelText: '取消',
      okButtonProps: { danger: true, 'data-testid': 'revoke-confirm-ok' } as never,
      onOk: async () => {
        setBusy(true);
        try {
          const done = await revokeRecord(record, reason);
          void message.success(ENGINE_TEXTS.done);
          onDone(done);
        } catch (err) {
          setErrors(applySaveError(err, form, ['reason']));
        } finally {
          setBusy(false);
        }
      },
    });
  };

  return (
    <Modal
      open={Boolean(record)}
      title="撤销信用记录"
      onCancel={onClose}
      destroyOnHidden
      okText="撤销"
      cancelText="取消"
      okButtonProps={{ danger: true, loading: busy, 'data-testid': 'revoke-ok' } as never}
      onOk={confirm}
      data-testid="credit-revoke"
    >
      {record ? (
        <Typography.Paragraph type="secondary">
          {record.subjectName} · {record.standardName} · {record.title}（{signedPoints(record.conduct, record.points)}）
        </Typography.Paragraph>
      ) : null}
      <SaveErrorAlert lines={errors} testId="revoke-error" />
      <Form form={form} layout="vertical">
        <Form.Item name="reason" label="撤销原因" required>
          <Input.TextArea
            rows={3}
            maxLength={TEXT_MAX}
            showCount
            placeholder="请填写撤销原因"
            data-testid="revoke-reason"
            onChange={() => form.setFields([{ name: 'reason', errors: [] }])}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** What 自动获取 found: the decisions, the records it made (waiting for review) and what it left out, and why. */
export function RetrieveResultModal({ result, onClose }: { result: CreditRetrieveResult | null; onClose: () => void }) {
  return (
    <Modal
      open={Boolean(result)}
      title="自动获取结果"
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose} data-testid="retrieve-close">
          我知道了
        </Button>
      }
      width={640}
      data-testid="retrieve-result"
    >
      {result ? (
        <>
          <Alert
            type={result.created.length ? 'success' : 'info'}
            showIcon
            title={result.message}
            style={{ marginBottom: 12 }}
            data-testid="retrieve-message"
          />
          {result.created.length ? (
            <List
              size="small"
              header={<Typography.Text strong>新增待审核记录</Typography.Text>}
              dataSource={result.created}
              renderItem={(r) => (
                <List.Item>
                  <Space>
                    <ConductTag conduct={r.conduct} />
                    {r.title}
                    <Typography.Text type="secondary">
                      {r.standardName} · {signedPoints(r.conduct, r.points)} · {r.startTime} 至 {r.endTime}
                    </Typography.Text>
                  </Space>
                </List.Item>
              )}
            />
          ) : null}
          {result.skipped.length ? (
            <List
              size="small"
              header={<Typography.Text strong>未新增</Typography.Text>}
              dataSource={result.skipped}
              renderItem={(s) => (
                <List.Item>
                  {s.title}
                  <Typography.Text type="secondary">{s.reason}</Typography.Text>
                </List.Item>
              )}
            />
          ) : null}
        </>
      ) : null}
    </Modal>
  );
}

/** 计分说明 (record/description): base score, level floors and the rules. */
export function DescriptionModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const q = useQuery({ ...descriptionQuery, enabled: open });
  return (
    <Modal
      open={open}
      title="信用记录计分说明"
      onCancel={onClose}
      footer={<Button onClick={onClose}>关闭</Button>}
      width={640}
      data-testid="credit-description"
    >
      {q.isPending ? (
        <Skeleton active />
      ) : q.data ? (
        <>
          <Typography.Paragraph>
            基础分 <Typography.Text strong>{scoreText(q.data.baseScore)}</Typography.Text> 分，在用信用标准项{' '}
            {q.data.standards} 项。
          </Typography.Paragraph>
          <ol style={{ paddingLeft: 20 }}>
            {q.data.rules.map((r) => (
              <li key={r} style={{ marginBottom: 6 }}>
                {r}
              </li>
            ))}
          </ol>
        </>
      ) : (
        <Alert type="error" showIcon title="计分说明加载失败" description={q.error?.message} />
      )}
    </Modal>
  );
}

/**
 * The three dialogs a records table opens — 详情, 审核, 撤销 — and the functions that open them; a decision closes its
 * dialog and calls `onChanged` (the list and the grade reload).
 */
export function useRecordDialogs(onChanged: () => void) {
  const [detail, setDetail] = useState<CreditRecord | null>(null);
  const audit = useRowDialog<CreditRecord>(onChanged);
  const revoke = useRowDialog<CreditRecord>(onChanged);
  return {
    open: { detail: setDetail, audit: audit.open, revoke: revoke.open },
    dialogs: (
      <>
        <RecordDetailDrawer record={detail} onClose={() => setDetail(null)} />
        <CreditAuditDialog record={audit.row} onClose={audit.close} onDone={audit.saved} />
        <RevokeDialog record={revoke.row} onClose={revoke.close} onDone={revoke.saved} />
      </>
    ),
  };
}
