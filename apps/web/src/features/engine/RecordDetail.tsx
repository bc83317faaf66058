import {
  ArrowLeftOutlined,
  AuditOutlined,
  DeleteOutlined,
  EditOutlined,
  RollbackOutlined,
  SaveOutlined,
  SendOutlined,
  UserSwitchOutlined,
} from '@ant-design/icons';
import { type FieldValues, type Operation, requiredAnnexMessage } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Descriptions, Result, Row, Skeleton, Space, Tag, Typography } from 'antd';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  type EngineRecord,
  formDetailsQuery,
  nodeButtonsQuery,
  nodeFieldsQuery,
  recordDetailQuery,
  recordLogsQuery,
  saveRecord,
  submitRecord,
} from '../../api/engine';
import { applyAttachmentOps, attachmentListQuery } from '../../api/files';
import { isApiError, reportApiError } from '../../api/request';
import { RecordAttachments, type RecordAttachmentsHandle } from '../../components/upload/RecordAttachments';
import { DynamicForm, type DynamicFormHandle } from '../../engine/form/DynamicForm';
import { useActionLock } from '../../engine/list/hooks';
import { ENGINE_TEXTS, isEditableStatus, levelText, recordOperations, statusMeta } from '../../engine/model';
import { formatDateTime } from '../../lib/format';
import { ENGINE_PAGES } from '../../lib/paths';
import { getRoles } from '../../lib/session';
import { AuditFlowView } from './AuditFlowView';
import { NoNode } from './NoNode';
import type { ListVariant } from './RecordList';
import { RecordLog } from './RecordLogDialog';
import { type EngineNode, nodeQuery, useEngineNode } from './useEngineNode';
import { isConflict, refreshAfterChange, useRecordActions } from './useRecordActions';

const PATHS = {
  dynamic: { ...ENGINE_PAGES.dynamic, noun: '记录' },
  apply: { ...ENGINE_PAGES.apply, noun: '申请' },
} as const;

const OP_ICONS: Record<string, ReactNode> = {
  edit: <EditOutlined />,
  submit: <SendOutlined />,
  revoke: <RollbackOutlined />,
  audit: <AuditOutlined />,
  delete: <DeleteOutlined />,
  assign: <UserSwitchOutlined />,
};

/**
 * The detail page of a record (/dynamicPage/dynamicDetail, /applyDetail). With an id it shows the record read-only,
 * its status, audit flow and operation log, and the record's actions; without an id, or with mode=edit, it is the
 * create / edit form.
 */
export function RecordDetailPage({ variant }: { variant: ListVariant }) {
  const node = useEngineNode();
  const [params] = useSearchParams();
  const id = params.get('id');
  const editing = !id || params.get('mode') === 'edit';
  if (!node.gnCoding || !node.systemCoding) return <NoNode />;
  const key = `${node.gnCoding}:${id ?? 'new'}`;
  return editing ? (
    <RecordForm key={`form:${key}`} node={node} id={id} variant={variant} />
  ) : (
    <RecordView key={`view:${key}`} node={node} id={id as string} variant={variant} />
  );
}

function useBack(node: EngineNode, variant: ListVariant) {
  const navigate = useNavigate();
  return useCallback(() => navigate(`${PATHS[variant].list}?${nodeQuery(node)}`), [navigate, node, variant]);
}

// ── view ────────────────────────────────────────────────────────────────────

function RecordView({ node, id, variant }: { node: EngineNode; id: string; variant: ListVariant }) {
  const { gnCoding, systemCoding } = node;
  const queryClient = useQueryClient();
  const back = useBack(node, variant);
  const detail = useQuery(recordDetailQuery(gnCoding, id));
  const fieldsQ = useQuery(nodeFieldsQuery(gnCoding, systemCoding));
  const formButtons = useQuery(nodeButtonsQuery(gnCoding, systemCoding, 'form'));
  const logs = useQuery(recordLogsQuery(gnCoding, id));
  const { locked, run: lockRun } = useActionLock();
  const { message } = App.useApp();
  const attachments = useRef<RecordAttachmentsHandle>(null);

  const reload = useCallback(() => refreshAfterChange(queryClient, gnCoding), [queryClient, gnCoding]);
  const actions = useRecordActions({
    node,
    detailPath: PATHS[variant].detail,
    onChanged: ({ deleted }) => {
      reload();
      if (deleted) void back();
    },
  });

  const record = detail.data;
  const ops = useMemo<Operation[]>(
    () =>
      record ? recordOperations(record, formButtons.data).filter((o) => o.code !== 'detail' && o.code !== 'logs') : [],
    [record, formButtons.data],
  );

  if (detail.isPending || fieldsQ.isPending) {
    return (
      <Card data-testid="engine-detail-loading">
        <Skeleton active paragraph={{ rows: 10 }} />
      </Card>
    );
  }
  if (detail.isError || fieldsQ.isError || !record) {
    return (
      <Card data-testid="engine-detail-error">
        <Result
          status="warning"
          title={`${PATHS[variant].noun}加载失败`}
          subTitle={(detail.error ?? fieldsQ.error)?.message}
          extra={
            <Space>
              <Button onClick={back}>返回列表</Button>
              <Button
                type="primary"
                onClick={() => {
                  void detail.refetch();
                  void fieldsQ.refetch();
                }}
              >
                重试
              </Button>
            </Space>
          }
        />
      </Card>
    );
  }

  const meta = statusMeta(record.status);
  const buttons = ops.map((op) => (
    <Button
      key={op.code}
      icon={OP_ICONS[op.code]}
      type={op.code === 'audit' || op.code === 'submit' ? 'primary' : 'default'}
      danger={op.code === 'delete'}
      disabled={locked.has(op.code)}
      onClick={() =>
        lockRun(op.code, () => {
          // §5: every required attachment type needs a file before the record goes to review
          const missing = op.code === 'submit' ? (attachments.current?.missingRequired() ?? []) : [];
          if (missing.length) {
            void message.warning(requiredAnnexMessage(missing.join('、')));
            return;
          }
          return actions.run(op.code, record as EngineRecord, op.name);
        })
      }
      data-testid={`detail-op-${op.code}`}
    >
      {op.name}
    </Button>
  ));

  return (
    <div data-testid={`engine-detail-${variant}`}>
      <Card
        size="small"
        title={
          <Space size={8}>
            <Button
              type="text"
              size="small"
              icon={<ArrowLeftOutlined />}
              onClick={back}
              aria-label="返回列表"
              data-testid="detail-back"
            />
            <span data-testid="engine-title">{node.title}</span>
            <Typography.Text type="secondary" style={{ fontWeight: 400 }}>
              {PATHS[variant].noun}详情
            </Typography.Text>
            <Tag color={meta.tag} data-testid="detail-status">
              {meta.text}
            </Tag>
          </Space>
        }
        extra={<Space wrap>{buttons}</Space>}
        styles={{ body: { padding: 16 } }}
      >
        <Descriptions
          size="small"
          column={{ xs: 1, md: 3 }}
          style={{ marginBottom: 12 }}
          items={[
            {
              key: 'level',
              label: '当前环节',
              children:
                record.status === 'pending' && record.auditLevel > 0
                  ? `待${levelText(record.auditLevel)}`
                  : record.status === 'passed'
                    ? '审核完成'
                    : record.status === 'rejected'
                      ? '已驳回，待修改后重新提交'
                      : '待提交',
            },
            { key: 'created', label: '创建时间', children: formatDateTime(record.createdAt) },
            { key: 'updated', label: '更新时间', children: formatDateTime(record.updatedAt) },
          ]}
        />
        {record.status === 'rejected' ? (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 12 }}
            title={`已被驳回${lastSuggestion(record) ? `：${lastSuggestion(record)}` : ''}`}
            data-testid="detail-rejected"
          />
        ) : null}
        <DynamicForm
          fields={fieldsQ.data.fields}
          initialValues={record.values}
          readOnly
          systemCoding={systemCoding}
          gnCoding={gnCoding}
        />
      </Card>
      {/* §6: the detail view shows attachments read-only (links and previews); the owner changes them in 编辑 */}
      <RecordAttachments ref={attachments} gnCoding={gnCoding} systemCoding={systemCoding} recordId={id} readOnly />
      <Row gutter={16} style={{ marginTop: 16 }}>
        <Col xs={24} xxl={9} style={{ marginBottom: 16 }}>
          <Card size="small" title="审核流程" style={{ height: '100%' }}>
            <AuditFlowView flow={record.auditFlow} pendingLevel={record.status === 'pending' ? record.auditLevel : 0} />
          </Card>
        </Col>
        <Col xs={24} xxl={15} style={{ marginBottom: 16 }}>
          <Card size="small" title="操作日志" style={{ height: '100%' }}>
            <RecordLog logs={logs} testId="detail-logs" />
          </Card>
        </Col>
      </Row>
      {actions.dialogs}
    </div>
  );
}

function lastSuggestion(record: { auditFlow: { action: string; suggestion: string | null }[] }): string | null {
  const last = [...record.auditFlow].reverse().find((s) => s.action === 'reject');
  return last?.suggestion ?? null;
}

// ── create / edit ───────────────────────────────────────────────────────────

const EMPTY = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** Values compared for unsaved edits: empty ones dropped, keys sorted. */
export function valuesKey(values: FieldValues | null | undefined): string {
  return JSON.stringify(
    Object.entries(values ?? {})
      .filter(([, v]) => !EMPTY(v))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

interface FieldErrorData {
  fieldErrors?: Record<string, string[]>;
}

function RecordForm({ node, id, variant }: { node: EngineNode; id: string | null; variant: ListVariant }) {
  const { gnCoding, systemCoding } = node;
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const back = useBack(node, variant);
  const details = useQuery(formDetailsQuery(gnCoding, systemCoding, id));
  const formButtons = useQuery(nodeButtonsQuery(gnCoding, systemCoding, 'form'));
  const formRef = useRef<DynamicFormHandle>(null);
  const attachments = useRef<RecordAttachmentsHandle>(null);
  const baseline = useRef<string | null>(null);
  const [valuesDirty, setDirty] = useState(false);
  const [attachmentsDirty, setAttachmentsDirty] = useState(false);
  const dirty = valuesDirty || attachmentsDirty;
  const [saving, setSaving] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const { locked, run: lockRun } = useActionLock();
  const [formKey, setFormKey] = useState(0);

  // what the form holds right after it is filled is the saved state that edits are compared with
  const data = details.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-read whenever the form is refilled (new data, new key)
  useEffect(() => {
    baseline.current = null;
    setDirty(false);
    if (!data) return;
    const t = setTimeout(() => {
      baseline.current = valuesKey(formRef.current?.getValues() ?? data.values);
    }, 0);
    return () => clearTimeout(t);
  }, [data, formKey]);

  const onValuesChange = useCallback((v: FieldValues) => {
    if (baseline.current === null) return;
    setDirty(valuesKey(v) !== baseline.current);
  }, []);

  const viewUrl = (recordId: string) => `${PATHS[variant].detail}?${nodeQuery(node, { id: recordId })}`;
  const refresh = () => refreshAfterChange(queryClient, gnCoding);
  const reloadForm = async () => {
    await details.refetch();
    setFormKey((k) => k + 1);
  };

  const failed = (err: unknown) => {
    if (isConflict(err)) {
      void message.warning(ENGINE_TEXTS.stale);
      void reloadForm();
      return;
    }
    const fieldErrors = isApiError(err) ? (err.data as FieldErrorData | null)?.fieldErrors : undefined;
    if (isApiError(err) && err.status === 400 && fieldErrors && Object.keys(fieldErrors).length) {
      void message.error(Object.values(fieldErrors).flat().join('；'));
      return;
    }
    if (isApiError(err)) reportApiError(err);
  };

  const save = () =>
    lockRun('save', async () => {
      const values = await formRef.current?.validate();
      if (!values || !data) return;
      const att = attachments.current;
      if (att?.busy()) {
        void message.warning('附件正在上传，请等待上传完成后再保存');
        return;
      }
      // §4 attachment operations: add for new uploads, del for removals, '' for the files kept
      const fileList = att?.operations() ?? [];
      const filesChanged = fileList.some((f) => f.fileOperationType !== '');
      setSaving(true);
      try {
        // an existing record's attachments go first: a refused file stops the save with the page as it is
        if (id && filesChanged) att?.applied(await applyAttachmentOps({ gnCoding, id, fileList }));
        const saved =
          id && !valuesDirty && filesChanged
            ? { id }
            : await saveRecord({
                gnCoding,
                values,
                ...(id ? { id, version: data.version ?? undefined } : {}),
              });
        if (!id && filesChanged) {
          try {
            const annex = await applyAttachmentOps({ gnCoding, id: saved.id, fileList });
            queryClient.setQueryData(attachmentListQuery(gnCoding, saved.id).queryKey, annex);
          } catch (err) {
            // the record is saved; its attachments can be added again in 编辑
            failed(err);
          }
        }
        void message.success(ENGINE_TEXTS.saved);
        refresh();
        // §4: saving ends editing; the saved record is shown read-only (编辑 edits it again)
        void navigate(viewUrl(saved.id), { replace: true });
      } catch (err) {
        failed(err);
      } finally {
        setSaving(false);
      }
    });

  const submit = () =>
    lockRun('submit', () => {
      if (!id || !data || dirty) {
        void message.warning(ENGINE_TEXTS.saveFirst);
        return;
      }
      const missing = attachments.current?.missingRequired() ?? [];
      if (missing.length) {
        void message.warning(requiredAnnexMessage(missing.join('、')));
        return;
      }
      modal.confirm({
        title: '提示',
        content: ENGINE_TEXTS.confirmSubmit,
        okText: '确定',
        cancelText: '取消',
        onOk: async () => {
          setSubmitting(true);
          try {
            await submitRecord({ gnCoding, id, version: data.version ?? 0 });
            void message.success(ENGINE_TEXTS.submitted);
            refresh();
            void navigate(viewUrl(id), { replace: true });
          } catch (err) {
            failed(err);
          } finally {
            setSubmitting(false);
          }
        },
      });
    });

  if (details.isPending) {
    return (
      <Card data-testid="engine-form-loading">
        <Skeleton active paragraph={{ rows: 10 }} />
      </Card>
    );
  }
  if (details.isError || !data) {
    return (
      <Card data-testid="engine-form-error">
        <Result
          status="warning"
          title="表单加载失败"
          subTitle={details.error?.message}
          extra={
            <Space>
              <Button onClick={back}>返回列表</Button>
              <Button type="primary" onClick={() => void details.refetch()}>
                重试
              </Button>
            </Space>
          }
        />
      </Card>
    );
  }

  const editable = !id || isEditableStatus(data.status ?? 'draft');
  const canSubmit = (formButtons.data ?? []).some((b) => b.code === 'submit' && b.show);
  const submitName = formButtons.data?.find((b) => b.code === 'submit')?.name || '提交';
  const meta = id && data.status ? statusMeta(data.status) : null;
  const noun = PATHS[variant].noun;
  const heading = id ? `编辑${noun}` : variant === 'apply' ? '新建申请' : `新增${noun}`;

  return (
    <div data-testid={`engine-form-${variant}`}>
      <Card
        size="small"
        title={
          <Space size={8}>
            <Button
              type="text"
              size="small"
              icon={<ArrowLeftOutlined />}
              onClick={() => (id ? navigate(viewUrl(id)) : back())}
              aria-label="返回"
              data-testid="form-back"
            />
            <span data-testid="engine-title">{node.title}</span>
            <Typography.Text type="secondary" style={{ fontWeight: 400 }}>
              {heading}
            </Typography.Text>
            {meta ? <Tag color={meta.tag}>{meta.text}</Tag> : null}
          </Space>
        }
        styles={{ body: { padding: 16 } }}
      >
        {!editable ? (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            title={`当前状态为「${meta?.text}」，不能修改`}
            data-testid="form-not-editable"
          />
        ) : null}
        <DynamicForm
          key={formKey}
          ref={formRef}
          fields={data.fields}
          initialValues={data.values}
          readOnly={!editable}
          systemCoding={systemCoding}
          gnCoding={gnCoding}
          onValuesChange={onValuesChange}
        />
        {/* uploads for the record's side while it may be edited; administrators see the attachments read-only (§6) */}
        <RecordAttachments
          ref={attachments}
          gnCoding={gnCoding}
          systemCoding={systemCoding}
          recordId={id}
          readOnly={!editable || getRoles().includes('admin')}
          onDirtyChange={setAttachmentsDirty}
        />
        <div
          style={{
            position: 'sticky',
            bottom: 0,
            display: 'flex',
            justifyContent: 'flex-end',
            alignItems: 'center',
            gap: 8,
            padding: '12px 0 0',
            marginTop: 8,
            borderTop: '1px solid #f0f0f0',
            background: '#fff',
          }}
          data-testid="form-actions"
        >
          {dirty ? (
            <Typography.Text type="warning" style={{ marginInlineEnd: 'auto' }} data-testid="form-dirty">
              有未保存的修改
            </Typography.Text>
          ) : null}
          <Button onClick={() => (id ? navigate(viewUrl(id)) : back())} data-testid="form-cancel">
            {id ? '返回详情' : '取消'}
          </Button>
          {editable ? (
            <Button
              type="primary"
              icon={<SaveOutlined />}
              loading={saving}
              disabled={locked.has('save')}
              onClick={save}
              data-testid="form-save"
            >
              保存
            </Button>
          ) : null}
          {editable && canSubmit ? (
            <Button
              icon={<SendOutlined />}
              loading={submitting}
              disabled={locked.has('submit')}
              onClick={submit}
              data-testid="form-submit"
            >
              {submitName}
            </Button>
          ) : null}
        </div>
      </Card>
    </div>
  );
}
