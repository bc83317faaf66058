import { DownloadOutlined } from '@ant-design/icons';
import {
  Code,
  DEFAULT_MAX_FILES,
  RFC_LOGBOOK_MAX,
  RFC_MESSAGES,
  RFC_REVIEW_NODE,
  RFC_SUGGESTION_MAX,
  RFC_SYSTEM,
  type RfcAnnex,
  type RfcChangeRecord,
  type RfcChangeTypeNode,
  type RfcField,
  rfcSaveProblem,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Cascader, Col, Input, Row, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { type ApiError, isApiError, reportApiError } from '../../api/request';
import { auditChange, rfcContactsQuery, rfcFieldsQuery, rfcTemplateUrl, saveChange, submitChange } from '../../api/rfc';
import { fieldErrorsOf } from '../../components/admin';
import { AttachmentUploader } from '../../components/upload/AttachmentUploader';
import { type AttachmentFile, uploadedAttachment } from '../../components/upload/types';
import { useActionLock } from '../../engine/list/hooks';
import { ENGINE_TEXTS } from '../../engine/model';
import { formatDateTime } from '../../lib/format';
import { ChangeDataTable, InfoChangeForm } from './InfoChangeForm';
import {
  allows,
  attachmentFileOf,
  attachmentsWaived,
  changedFieldProblem,
  dataListOf,
  type FormValue,
  formFieldsOf,
  formProblems,
  formValueOf,
  highestOf,
  kindOf,
  opName,
  STATUS_COLORS,
  typeCodeOf,
  typeLabelOf,
  typePathOf,
} from './model';

/** §9: the reason textarea has 2 rows, the review suggestion 5. */
export const REASON_ROWS = 2;
export const SUGGESTION_ROWS = 5;

/** Where the round's files are uploaded: the review node of the change rounds. */
const UPLOAD_TARGET = { gnCoding: RFC_REVIEW_NODE, systemCoding: RFC_SYSTEM };

export interface RoundPanelProps {
  round: RfcChangeRecord;
  /** the latest round: the only one that may be edited or decided */
  latest: boolean;
  gnCoding: string;
  systemCoding: string;
  businessId: string;
  /** the change types of the area, for this mode (contact person or not) */
  types: RfcChangeTypeNode[];
  isAdmin: boolean;
  /** reload the rounds (after a step, or when the round turned out to be stale) */
  onReload: () => void;
  /** after a submit: the dialog closes */
  onSubmitted: () => void;
  /** a step changed the round (save, submit, decision): lists of rounds refresh */
  onChanged: () => void;
  onClose: () => void;
}

/** Refusals the dialog shows as a message (the server's Chinese words); anything else goes to the global prompt. */
const REFUSALS = new Set([400, 403, 404, 422]);

const isConflict = (err: unknown): err is ApiError =>
  isApiError(err) && (err.status === Code.CONFLICT || err.code === Code.CONFLICT);

/**
 * One round of changes (screen 1, one tab): the initiate-change card (change type, reason, submit time, attachments
 * with the template), the before/after form or the contact selector, and the review card (suggestion, status,
 * confirmation time), with the buttons the server allows. A new round starts in edit mode; save ends it and the round
 * reloads read-only until 修改; submit needs a saved state (请先保存！), is confirmed and closes the dialog; reject
 * needs a suggestion.
 */
export function RoundPanel({
  round,
  latest,
  gnCoding,
  systemCoding,
  businessId,
  types,
  isAdmin,
  onReload,
  onSubmitted,
  onChanged,
  onClose,
}: RoundPanelProps) {
  const { message, modal } = App.useApp();
  const { locked, run: lockRun } = useActionLock();

  // administrators change nothing once the latest round is decided; earlier rounds are history
  const open = latest && round.change === '1';
  const canSave = open && allows(round, 'save');
  const canEdit = open && allows(round, 'edit');
  const canSubmit = open && allows(round, 'submit');
  const canDecide = open && (allows(round, 'pass') || allows(round, 'reject'));

  const [editing, setEditing] = useState(canSave && !round.saved);
  const [typeCode, setTypeCode] = useState(round.changeTypeCode ?? '');
  const [logbook, setLogbook] = useState(round.logbook ?? '');
  const storedAttachments = useMemo(
    () => round.files.filter((f) => f.code === null).map(attachmentFileOf),
    [round.files],
  );
  const storedAnnexes = useMemo(() => round.files.filter((f) => f.code !== null).map(attachmentFileOf), [round.files]);
  const [attachments, setAttachments] = useState<AttachmentFile[]>(storedAttachments);
  const [annexFiles, setAnnexFiles] = useState<AttachmentFile[]>(storedAnnexes);
  const [uploading, setUploading] = useState(0);
  const [suggestion, setSuggestion] = useState(round.auditRecord ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);

  const kind = kindOf(types, typeCode);
  const contactMode = kind === 'contact';
  const wantsFields = editing && kind !== null;
  // a saved round's form too: its annex names (变更材料) come with it
  const fieldsQ = useQuery({
    ...rfcFieldsQuery({ id: businessId, gnCoding, systemCoding, changeTypeCode: typeCode, changeId: round.id }),
    enabled: kind !== null && (editing || round.id !== null),
  });
  const contactsQ = useQuery({ ...rfcContactsQuery(round.enterpriseId), enabled: wantsFields && contactMode });

  const formFields = useMemo<RfcField[]>(
    () => (fieldsQ.data ? formFieldsOf(kind, fieldsQ.data.fields) : []),
    [fieldsQ.data, kind],
  );
  const annexes: RfcAnnex[] = fieldsQ.data?.fjList ?? [];
  const waived = editing && attachmentsWaived(gnCoding, fieldsQ.data?.map);

  // the form's values start from the fields' list (the round's new values, or the current ones) when it arrives
  const [values, setValuesState] = useState<Record<string, FormValue>>({});
  const valuesRef = useRef(values);
  const setValues = (next: Record<string, FormValue>) => {
    valuesRef.current = next;
    setValuesState(next);
  };
  const [seen, setSeen] = useState<unknown>(null);
  if (fieldsQ.data && fieldsQ.data !== seen) {
    setSeen(fieldsQ.data);
    const next: Record<string, FormValue> = {};
    for (const f of fieldsQ.data.fields) {
      const item = fieldsQ.data.list.find((i) => i.changeField === f.code);
      next[f.code] = formValueOf(f, item ? item.newValue : (fieldsQ.data.map[f.code] ?? null));
    }
    setValues(next);
    setErrors({});
  }

  const clearError = (code: string) =>
    setErrors((e) => {
      if (!e[code]) return e;
      const { [code]: _, ...rest } = e;
      return rest;
    });

  /** A field's value is complete: §5 checks; a refused value is cleared, with the message. */
  const check = (code: string) => {
    const current = valuesRef.current;
    const problem = changedFieldProblem(code, current, highestOf(formFields, current));
    if (problem) {
      void message.error(problem.message);
      setValues({ ...current, [problem.field]: null });
      setErrors((e) => ({ ...e, [problem.field]: problem.message }));
    }
  };

  const onFieldChange = (code: string, value: FormValue, commit = true) => {
    let next = { ...valuesRef.current, [code]: value };
    // a standard belongs to a group: choosing one sets its group; another group drops a standard of a different one
    if (code === 'standard') {
      const group = formFields.find((f) => f.code === 'standard')?.options?.find((o) => o.value === value)?.group;
      if (group && formFields.some((f) => f.code === 'xx_grouping' && !f.readonly))
        next = { ...next, xx_grouping: group };
    }
    if (code === 'xx_grouping') {
      const std = formFields.find((f) => f.code === 'standard')?.options?.find((o) => o.value === next.standard);
      if (std?.group && std.group !== value) next = { ...next, standard: null };
    }
    setValues(next);
    clearError(code);
    if (commit) check(code);
  };

  /** A failed step: 409 (someone else was first, or the round moved on) reloads; a refusal says why. */
  const failed = (err: unknown) => {
    if (isConflict(err)) {
      void message.warning(err.message || RFC_MESSAGES.stale);
      onReload();
      return;
    }
    if (isApiError(err) && REFUSALS.has(err.status) && err.message) {
      void message.error(err.message);
      // the server's field errors go under their fields (the dialog's own checks use the same words)
      const found = fieldErrorsOf(err);
      if (found.length) {
        setErrors((e) => ({ ...e, ...Object.fromEntries(found.map((f) => [String(f.name[0]), f.errors[0] ?? ''])) }));
      }
      return;
    }
    if (isApiError(err)) reportApiError(err);
  };

  const save = () =>
    lockRun('save', async () => {
      if (kind !== null && kind !== 'other' && fieldsQ.isPending) {
        void message.info('变更内容加载中，请稍候');
        return;
      }
      const problem = rfcSaveProblem({
        changeTypeCode: typeCode,
        kind,
        logbook,
        attachmentCount: waived ? 1 : attachments.length,
        annexes: waived ? [] : annexes.map((a) => ({ code: a.code, name: a.name, required: a.required })),
        annexCodes: annexFiles.map((f) => f.annexNo ?? ''),
      });
      if (problem) {
        void message.warning(problem.message);
        setErrors((e) => ({ ...e, [problem.field]: problem.message }));
        return;
      }
      const current = valuesRef.current;
      const formErrors = formProblems(formFields, current, highestOf(formFields, current));
      if (contactMode && !current.contact && formFields.some((f) => f.code === 'contact')) {
        formErrors.contact = RFC_MESSAGES.contactRequired;
      }
      if (Object.keys(formErrors).length) {
        setErrors(formErrors);
        void message.error(RFC_MESSAGES.formInvalid);
        return;
      }
      if (uploading > 0) {
        void message.info('附件正在上传，请上传完成后再保存');
        return;
      }
      setBusy('save');
      try {
        await saveChange({
          gnCoding,
          systemCoding,
          businessId,
          id: round.id,
          version: round.id ? round.version : null,
          dataList: dataListOf(formFields, fieldsQ.data?.map ?? {}, current),
          fileList: annexFiles.map((f) => ({ fileId: f.fileId, code: f.annexNo ?? '' })),
          attachment: attachments.map((f) => f.fileId),
          changeType: typeLabelOf(types, typeCode),
          changeTypeCode: typeCode,
          logbook: logbook.trim(),
        });
        void message.success(RFC_MESSAGES.saved);
        setEditing(false);
        onChanged();
        onReload();
      } catch (err) {
        failed(err);
      } finally {
        setBusy(null);
      }
    });

  const submit = () =>
    lockRun('submit', () => {
      if (editing) {
        void message.warning(RFC_MESSAGES.saveFirst);
        return;
      }
      if (!round.id) return;
      const id = round.id;
      modal.confirm({
        title: '提示',
        content: RFC_MESSAGES.submitConfirm,
        okText: '确定',
        cancelText: '取消',
        onOk: async () => {
          try {
            await submitChange({ id, version: round.version });
            void message.success(RFC_MESSAGES.submitted);
            onChanged();
            onSubmitted();
          } catch (err) {
            failed(err);
          }
        },
      });
    });

  const decide = (pass: boolean) =>
    lockRun(pass ? 'pass' : 'reject', () => {
      const text = suggestion.trim();
      if (!pass && !text) {
        void message.warning(RFC_MESSAGES.suggestionRequired);
        setErrors((e) => ({ ...e, auditRecord: RFC_MESSAGES.suggestionRequired }));
        return;
      }
      if (!round.id) return;
      const id = round.id;
      modal.confirm({
        title: '提示',
        content: pass ? ENGINE_TEXTS.confirmPass : ENGINE_TEXTS.confirmReject,
        okText: '确定',
        cancelText: '取消',
        okButtonProps: { danger: !pass },
        onOk: async () => {
          setBusy(pass ? 'pass' : 'reject');
          try {
            await auditChange({ id, version: round.version, pass, auditRecord: text || null });
            void message.success(pass ? RFC_MESSAGES.passed : RFC_MESSAGES.rejected);
            onChanged();
            onReload();
          } catch (err) {
            failed(err);
          } finally {
            setBusy(null);
          }
        },
      });
    });

  const startEdit = () => {
    setTypeCode(round.changeTypeCode ?? '');
    setLogbook(round.logbook ?? '');
    setAttachments(storedAttachments);
    setAnnexFiles(storedAnnexes);
    setSeen(null);
    setErrors({});
    setEditing(true);
  };

  // ── cards ──
  const initiate = (
    <Card size="small" title="发起变更" data-testid="rfc-initiate" data-editing={editing ? '1' : '0'}>
      <Row gutter={16}>
        <Col span={12}>
          <FormLine label="变更类型" required={editing} error={errors.changeTypeCode}>
            {editing ? (
              <Cascader
                options={types}
                fieldNames={{ label: 'label', value: 'value', children: 'children' }}
                value={typePathOf(typeCode)}
                onChange={(path) => {
                  setTypeCode(typeCodeOf(path as string[] | undefined));
                  clearError('changeTypeCode');
                }}
                placeholder="请选择变更类型"
                style={{ width: '100%' }}
                status={errors.changeTypeCode ? 'error' : undefined}
                data-testid="rfc-type"
              />
            ) : (
              <span data-testid="rfc-type-text">{round.changeType ?? '—'}</span>
            )}
          </FormLine>
        </Col>
        <Col span={12}>
          <FormLine label="提交时间">
            <span data-testid="rfc-sb-time">{round.sbTime ? formatDateTime(round.sbTime) : '未提交'}</span>
          </FormLine>
        </Col>
        <Col span={24}>
          <FormLine label="变更原因" required={editing} error={errors.logbook}>
            {editing ? (
              <Input.TextArea
                rows={REASON_ROWS}
                value={logbook}
                maxLength={RFC_LOGBOOK_MAX}
                showCount
                placeholder="请输入变更原因"
                status={errors.logbook ? 'error' : undefined}
                onChange={(e) => {
                  setLogbook(e.target.value);
                  clearError('logbook');
                }}
                data-testid="rfc-reason"
              />
            ) : (
              <Typography.Paragraph style={{ marginBottom: 0, whiteSpace: 'pre-wrap' }} data-testid="rfc-reason-text">
                {round.logbook || '—'}
              </Typography.Paragraph>
            )}
          </FormLine>
        </Col>
        <Col span={24}>
          <FormLine
            label="附件"
            required={editing && !waived}
            error={errors.attachment}
            extra={
              <a href={rfcTemplateUrl(gnCoding, typeCode || null)} download data-testid="rfc-template">
                <DownloadOutlined /> 模板下载
              </a>
            }
          >
            {waived ? (
              <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }} data-testid="rfc-waived">
                企业信息尚未完善，本次补充信息的变更无需上传附件。
              </Typography.Paragraph>
            ) : null}
            <AttachmentUploader
              testId="rfc-attachments"
              files={editing ? attachments : storedAttachments}
              target={UPLOAD_TARGET}
              max={DEFAULT_MAX_FILES}
              // administrators see the enterprise's files read-only (§6)
              readOnly={!editing || isAdmin}
              onUploaded={(file, local) => {
                setAttachments((list) => [...list, uploadedAttachment(file, local)]);
                clearError('attachment');
              }}
              onRemove={(f) => setAttachments((list) => list.filter((x) => x.fileId !== f.fileId))}
              onBusyChange={(b) => setUploading((n) => Math.max(0, n + (b ? 1 : -1)))}
            />
          </FormLine>
        </Col>
      </Row>
    </Card>
  );

  let content: ReactNode = null;
  if (editing && kind && kind !== 'other') {
    if (fieldsQ.isPending) content = <Skeleton active paragraph={{ rows: 4 }} />;
    else if (fieldsQ.isError)
      content = (
        <Alert
          type="error"
          showIcon
          title={`变更内容加载失败：${fieldsQ.error.message}`}
          action={
            <Button size="small" onClick={() => void fieldsQ.refetch()}>
              重试
            </Button>
          }
        />
      );
    else
      content = (
        <InfoChangeForm
          fields={formFields}
          current={fieldsQ.data.map}
          values={values}
          errors={errors}
          onChange={onFieldChange}
          onCommit={check}
          contacts={contactsQ.data}
          contactsLoading={contactsQ.isFetching}
        />
      );
  } else if (!editing && round.dataList.some((i) => i.dataType !== '附件')) {
    content = <ChangeDataTable items={round.dataList} />;
  }

  const annexCard =
    annexes.length > 0 || (!editing && storedAnnexes.length > 0) ? (
      <AnnexTable
        annexes={annexes}
        files={editing ? annexFiles : storedAnnexes}
        readOnly={!editing || isAdmin}
        error={errors.fileList}
        onUploaded={(code, file) => {
          setAnnexFiles((list) => [...list, { ...file, annexNo: code }]);
          clearError('fileList');
        }}
        onRemove={(f) => setAnnexFiles((list) => list.filter((x) => x.fileId !== f.fileId))}
        onBusy={(b) => setUploading((n) => Math.max(0, n + (b ? 1 : -1)))}
      />
    ) : null;

  const review = (
    <Card size="small" title="变更审核" data-testid="rfc-review">
      <Row gutter={16}>
        <Col span={24}>
          <FormLine label="审核建议" error={errors.auditRecord}>
            {canDecide ? (
              <Input.TextArea
                rows={SUGGESTION_ROWS}
                value={suggestion}
                maxLength={RFC_SUGGESTION_MAX}
                showCount
                placeholder="请输入审核建议（驳回时必填）"
                status={errors.auditRecord ? 'error' : undefined}
                onChange={(e) => {
                  setSuggestion(e.target.value);
                  clearError('auditRecord');
                }}
                data-testid="rfc-suggestion"
              />
            ) : (
              <Input.TextArea
                rows={SUGGESTION_ROWS}
                value={round.auditRecord ?? ''}
                readOnly
                placeholder="暂无审核建议"
                data-testid="rfc-suggestion-text"
              />
            )}
          </FormLine>
        </Col>
        <Col span={12}>
          <FormLine label="变更状态">
            <Tag color={STATUS_COLORS[round.change]} data-testid="rfc-status">
              {round.changeStatus}
            </Tag>
            {round.change === '1' && round.submitted ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                已提交{round.auditLevel ? `，第 ${round.auditLevel} 级审核中` : '，审核中'}
              </Typography.Text>
            ) : round.change === '1' && round.id ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {round.saved ? '已保存，未提交' : '未保存'}
              </Typography.Text>
            ) : null}
          </FormLine>
        </Col>
        <Col span={12}>
          <FormLine label="确认时间">
            <span data-testid="rfc-cz-time">{round.czTime ? formatDateTime(round.czTime) : '—'}</span>
            {round.auditorName ? (
              <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
                {round.auditorName}
              </Typography.Text>
            ) : null}
          </FormLine>
        </Col>
      </Row>
    </Card>
  );

  const buttons: ReactNode[] = [];
  if (editing && (canSave || canEdit)) {
    buttons.push(
      <Button
        key="save"
        type="primary"
        loading={busy === 'save'}
        disabled={busy !== null || locked.has('save')}
        onClick={save}
        data-testid="rfc-save"
      >
        {opName(round, 'save', '保存')}
      </Button>,
    );
  }
  if (!editing && canEdit) {
    buttons.push(
      <Button key="edit" onClick={startEdit} disabled={busy !== null} data-testid="rfc-edit">
        {opName(round, 'edit', '修改')}
      </Button>,
    );
  }
  if (canSubmit) {
    buttons.push(
      <Button
        key="submit"
        type="primary"
        style={{ background: '#52c41a' }}
        disabled={busy !== null || locked.has('submit')}
        onClick={submit}
        data-testid="rfc-submit"
      >
        {opName(round, 'submit', '提交')}
      </Button>,
    );
  }
  if (open && allows(round, 'reject')) {
    buttons.push(
      <Button
        key="reject"
        danger
        loading={busy === 'reject'}
        disabled={busy !== null || locked.has('reject')}
        onClick={() => decide(false)}
        data-testid="rfc-reject"
      >
        {opName(round, 'reject', '驳回')}
      </Button>,
    );
  }
  if (open && allows(round, 'pass')) {
    buttons.push(
      <Button
        key="pass"
        type="primary"
        loading={busy === 'pass'}
        disabled={busy !== null || locked.has('pass')}
        onClick={() => decide(true)}
        data-testid="rfc-pass"
      >
        {opName(round, 'pass', '通过')}
      </Button>,
    );
  }
  buttons.push(
    <Button key="close" onClick={onClose} data-testid="rfc-close">
      {opName(round, 'closed', '关闭')}
    </Button>,
  );

  return (
    <div data-testid={`rfc-round-${round.round}`} data-change={round.change}>
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {!open && latest && round.change !== '1' ? (
          <Alert
            type={round.change === '2' ? 'success' : 'warning'}
            showIcon
            title={round.change === '2' ? '本轮变更已通过，新的内容已生效' : '本轮变更已驳回，原内容保持不变'}
            data-testid="rfc-decided"
          />
        ) : null}
        {initiate}
        {content ? (
          <Card
            size="small"
            title={contactMode ? '联系人变更' : kind === 'time' ? '时间变更' : '变更内容'}
            data-testid="rfc-content"
          >
            {content}
          </Card>
        ) : null}
        {annexCard}
        {review}
        <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8 }} data-testid="rfc-buttons">
          {buttons}
        </div>
      </Space>
    </div>
  );
}

/** A label, its control, and the line's error under it. */
function FormLine({
  label,
  required,
  error,
  extra,
  children,
}: {
  label: string;
  required?: boolean;
  error?: string;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div style={{ marginBottom: 12 }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 4 }}>
        <span style={{ color: 'rgba(0,0,0,0.65)' }}>
          {required ? <span style={{ color: '#ff4d4f', marginInlineEnd: 4 }}>*</span> : null}
          {label}
        </span>
        {extra}
      </div>
      {children}
      {error ? <div style={{ color: '#ff4d4f', fontSize: 12, marginTop: 2 }}>{error}</div> : null}
    </div>
  );
}

/** The annexes the change type asks for (fjList): required marker, name, formats and size, and their files. */
function AnnexTable({
  annexes,
  files,
  readOnly,
  error,
  onUploaded,
  onRemove,
  onBusy,
}: {
  annexes: RfcAnnex[];
  files: AttachmentFile[];
  readOnly: boolean;
  error?: string;
  onUploaded: (code: string, file: AttachmentFile) => void;
  onRemove: (file: AttachmentFile) => void;
  onBusy: (busy: boolean) => void;
}) {
  // a read-only round shows the files it holds, by annex code (its annex list is the type's, not loaded here)
  const rows: { code: string; annex: RfcAnnex | null }[] = annexes.length
    ? annexes.map((a) => ({ code: a.code, annex: a }))
    : [...new Set(files.map((f) => f.annexNo ?? ''))].map((code) => ({ code, annex: null }));
  return (
    <Card size="small" title="变更材料" data-testid="rfc-annexes">
      <Table
        size="small"
        bordered
        rowKey="code"
        pagination={false}
        dataSource={rows}
        columns={[
          {
            title: '材料名称',
            key: 'name',
            width: 220,
            render: (_, r) => (
              <span data-testid={`rfc-annex-${r.code}`}>
                {r.annex?.required ? <span style={{ color: '#ff4d4f', marginInlineEnd: 4 }}>*</span> : null}
                {r.annex?.name ?? r.code}
              </span>
            ),
          },
          {
            title: '格式与大小',
            key: 'rule',
            width: 180,
            render: (_, r) =>
              r.annex ? (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {r.annex.formats.join('、') || '不限格式'}
                  {r.annex.maxSizeMb > 0 ? `，不超过 ${r.annex.maxSizeMb} MB` : ''}
                </Typography.Text>
              ) : null,
          },
          {
            title: '文件',
            key: 'files',
            render: (_, r) => (
              <AttachmentUploader
                testId={`rfc-annex-files-${r.code}`}
                files={files.filter((f) => (f.annexNo ?? '') === r.code)}
                target={UPLOAD_TARGET}
                type={
                  r.annex
                    ? { annexName: r.annex.name, annexFormat: r.annex.formats.join(','), annexSize: r.annex.maxSizeMb }
                    : null
                }
                readOnly={readOnly || !r.annex}
                onUploaded={(file, local) => onUploaded(r.code, uploadedAttachment(file, local, r.code))}
                onRemove={onRemove}
                onBusyChange={onBusy}
              />
            ),
          },
        ]}
      />
      {error ? (
        <div style={{ color: '#ff4d4f', fontSize: 12, marginTop: 6 }} data-testid="rfc-annex-error">
          {error}
        </div>
      ) : null}
    </Card>
  );
}
