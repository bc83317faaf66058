import { EyeOutlined } from '@ant-design/icons';
import {
  type AdminNotice,
  fileIdOfUrl,
  NOTICE_CATEGORIES,
  NOTICE_EXTENSIONS,
  NOTICE_LINK_MESSAGES,
  type NoticeCategory,
  type NoticeInput,
  previewKind,
  REGIONS,
  TRADE_TYPES,
  type TradeType,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Col, Drawer, Form, Input, Modal, Row, Select, Skeleton, Space, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { adminNoticeDetailQuery, type NoticeSaveBody, saveNotice } from '../../api/portalAdmin';
import { type ApiError, isApiError, reportApiError } from '../../api/request';
import { LazyRichTextEditor } from '../../components/editor/LazyRichTextEditor';
import { AttachmentUploader } from '../../components/upload/AttachmentUploader';
import type { AttachmentFile } from '../../components/upload/types';
import { sanitizeHtml } from '../../lib/sanitize';
import { noticeBodyProblem } from './noticeLinks';

export const AMOUNT_PATTERN = /^\d{1,14}(\.\d{1,2})?$/;
export const MAX_NOTICE_ATTACHMENTS = 20;

/** An attachment of the form: the stored file's name and download address; `added` until the notice is saved. */
export interface NoticeAttachment {
  name: string;
  url: string;
  fileSize?: number | null;
  added?: boolean;
}

export interface NoticeFormValues {
  title: string;
  category?: NoticeCategory;
  tradeType?: TradeType;
  region?: string;
  projectCode?: string;
  projectName?: string;
  sectionName?: string;
  tenderer?: string;
  amount?: string;
  bodyHtml: string;
  attachments: NoticeAttachment[];
}

const blank = (v: string | undefined | null): string | null => {
  const t = v?.trim();
  return t ? t : null;
};

/** Form values → the NoticeInput of the contract (empty optional fields as null). */
export function toNoticeInput(v: NoticeFormValues): NoticeInput {
  return {
    title: v.title.trim(),
    category: v.category as NoticeCategory,
    tradeType: v.tradeType as TradeType,
    region: v.region as NoticeInput['region'],
    projectCode: blank(v.projectCode),
    projectName: blank(v.projectName),
    sectionName: blank(v.sectionName),
    tenderer: blank(v.tenderer),
    amount: blank(v.amount),
    bodyHtml: v.bodyHtml,
    attachments: (v.attachments ?? []).map((a) => ({ name: a.name.trim(), url: a.url.trim() })),
  };
}

function toFormValues(n: AdminNotice): NoticeFormValues {
  return {
    title: n.title,
    category: n.category as NoticeCategory,
    tradeType: n.tradeType as TradeType,
    region: n.region,
    projectCode: n.projectCode ?? undefined,
    projectName: n.projectName ?? undefined,
    sectionName: n.sectionName ?? undefined,
    tenderer: n.tenderer ?? undefined,
    amount: n.amount ?? undefined,
    // what the editor will show: the stored body through the same sanitiser (an old row's foreign image is dropped)
    bodyHtml: sanitizeHtml(n.bodyHtml),
    attachments: n.attachments.map((a) => ({ name: a.name, url: a.url })),
  };
}

/** "attachments.0.url" → ['attachments', 0, 'url'], the name path of the form field. */
export function fieldPath(key: string): (string | number)[] {
  return key.split('.').map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg));
}

const FORM_FIELDS = new Set([
  'title',
  'category',
  'tradeType',
  'region',
  'projectCode',
  'projectName',
  'sectionName',
  'tenderer',
  'amount',
  'bodyHtml',
  'attachments',
]);

/**
 * The field errors of a 400 answer (data.fieldErrors keyed by field path), limited to fields of this form. An
 * attachment's error (attachments.N.url) goes on the attachment list, naming the attachment.
 */
export function fieldErrorsOf(
  err: ApiError,
  attachments: NoticeAttachment[] = [],
): { name: (string | number)[]; errors: string[] }[] {
  const fe = (err.data as { fieldErrors?: Record<string, string[] | string> } | null)?.fieldErrors;
  if (err.status !== 400 || !fe || typeof fe !== 'object') return [];
  const out = new Map<string, { name: (string | number)[]; errors: string[] }>();
  for (const [key, msgs] of Object.entries(fe)) {
    const root = key.split('.')[0]!;
    if (!FORM_FIELDS.has(root)) continue;
    const list = Array.isArray(msgs) ? msgs.map(String) : [String(msgs)];
    const index = root === 'attachments' ? fieldPath(key)[1] : undefined;
    const named = typeof index === 'number' && attachments[index] ? `「${attachments[index].name}」` : '';
    const target = root === 'attachments' ? ['attachments'] : fieldPath(key);
    const entry = out.get(target.join('.')) ?? { name: target, errors: [] };
    entry.errors.push(...list.map((m) => `${named}${m}`));
    out.set(target.join('.'), entry);
  }
  return [...out.values()];
}

const options = (list: readonly string[]) => list.map((v) => ({ label: v, value: v }));

/** The attachment list as the uploader shows it. */
export function attachmentFiles(list: NoticeAttachment[]): AttachmentFile[] {
  return list.map((a) => ({
    fileId: fileIdOfUrl(a.url) ?? a.url,
    fileName: a.name,
    fileSize: a.fileSize ?? null,
    url: a.url,
    preview: previewKind(a.name),
    annexNo: null,
    added: a.added,
  }));
}

/**
 * 附件: the attachment uploader (screen 7) for notices — files go to upload-notice (over 5 MB chunked, usage notice)
 * and are public once stored; the list holds their names and download addresses, which is what the notice saves.
 */
export function NoticeAttachmentsField({
  value = [],
  onChange,
  onBusyChange,
}: {
  value?: NoticeAttachment[];
  onChange?: (v: NoticeAttachment[]) => void;
  onBusyChange?: (busy: boolean) => void;
}) {
  const files = useMemo(() => attachmentFiles(value), [value]);
  // uploads that finish together each add to the newest list
  const latest = useRef(value);
  latest.current = value;
  return (
    <AttachmentUploader
      files={files}
      target={{}}
      usage="notice"
      max={MAX_NOTICE_ATTACHMENTS}
      accept={NOTICE_EXTENSIONS}
      onUploaded={(f) => {
        latest.current = [...latest.current, { name: f.fileName, url: f.url, fileSize: f.fileSize, added: true }];
        onChange?.(latest.current);
      }}
      onRemove={(f) => onChange?.(value.filter((a) => a.url !== f.url))}
      onBusyChange={onBusyChange}
      testId="notice-attachments"
    />
  );
}

/** 预览: the body as the portal shows it — sanitised (DOMPurify in its own inert document), with its attachments. */
export function NoticePreview({
  open,
  onClose,
  values,
}: {
  open: boolean;
  onClose: () => void;
  values: Partial<NoticeFormValues>;
}) {
  const html = useMemo(() => (open ? sanitizeHtml(values.bodyHtml) : ''), [open, values.bodyHtml]);
  return (
    <Modal open={open} onCancel={onClose} footer={null} width={860} title="预览（门户显示效果）" destroyOnHidden>
      <Typography.Title level={4} style={{ textAlign: 'center' }} data-testid="notice-preview-title">
        {values.title || '（未填写标题）'}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
        {[values.category, values.tradeType, values.region, values.projectName, values.sectionName]
          .filter(Boolean)
          .join(' · ')}
      </Typography.Paragraph>
      <div
        data-testid="notice-preview"
        style={{ lineHeight: 1.9, wordBreak: 'break-word', maxHeight: '60vh', overflow: 'auto' }}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify (sanitizeHtml) in an inert document
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {values.attachments?.length ? (
        <div style={{ marginTop: 16 }}>
          <Typography.Text strong>附件：</Typography.Text>
          {values.attachments.map((a) => (
            <div key={a.url}>{a.name}</div>
          ))}
        </div>
      ) : null}
    </Modal>
  );
}

export interface NoticeFormDrawerProps {
  open: boolean;
  /** null: a new notice; otherwise the id of the notice to edit (loaded afresh for its latest version). */
  noticeId: string | null;
  onClose: () => void;
  onSaved: (notice: AdminNotice) => void;
}

/**
 * Create or edit a notice: the fields of NoticeInput (with the project and section it belongs to, free text until the
 * tendering module links them), the body in the rich-text editor (screen 12: uploaded images, checked links), and the
 * attachments through the attachment uploader. 预览 shows the sanitised body as the portal will.
 */
export function NoticeFormDrawer({ open, noticeId, onClose, onSaved }: NoticeFormDrawerProps) {
  const { message } = App.useApp();
  const [form] = Form.useForm<NoticeFormValues>();
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const editing = noticeId !== null;
  const detail = useQuery({ ...adminNoticeDetailQuery(noticeId ?? ''), enabled: open && editing });
  const watched = Form.useWatch([], form) as Partial<NoticeFormValues> | undefined;

  useEffect(() => {
    if (!open) return;
    setFormError(null);
    if (!editing) {
      form.resetFields();
      form.setFieldsValue({ bodyHtml: '', attachments: [] });
    } else if (detail.data) {
      form.resetFields();
      form.setFieldsValue(toFormValues(detail.data));
    }
  }, [open, editing, detail.data, form]);

  const onFinish = async (values: NoticeFormValues) => {
    if (saving || uploading) return;
    const input = toNoticeInput(values);
    let body: NoticeSaveBody = input;
    if (editing) {
      if (!detail.data) return;
      body = { ...input, id: detail.data.id, version: detail.data.version };
    }
    setSaving(true);
    setFormError(null);
    try {
      const saved = await saveNotice(body);
      void message.success('保存成功');
      onSaved(saved);
    } catch (err) {
      if (!isApiError(err)) throw err;
      const fields = fieldErrorsOf(err, values.attachments);
      if (fields.length > 0) {
        form.setFields(fields as Parameters<typeof form.setFields>[0]);
        setFormError(err.message);
      } else {
        if (err.status === 409) setFormError(err.message);
        reportApiError(err);
      }
    } finally {
      setSaving(false);
    }
  };

  const loading = editing && detail.isPending;
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={editing ? '编辑公告' : '新建公告'}
      size={980}
      destroyOnHidden
      mask={{ closable: false }}
      data-testid="notice-drawer"
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>取消</Button>
          <Button
            icon={<EyeOutlined />}
            onClick={() => setPreviewing(true)}
            disabled={loading}
            data-testid="notice-preview-open"
          >
            预览
          </Button>
          <Button
            type="primary"
            loading={saving}
            disabled={loading || detail.isError || uploading}
            title={uploading ? '附件上传中，请稍候' : undefined}
            onClick={() => form.submit()}
            data-testid="notice-save"
          >
            保存
          </Button>
        </Space>
      }
    >
      {loading ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : detail.isError && editing ? (
        <Alert type="error" showIcon title="公告加载失败" description={detail.error.message} />
      ) : (
        <Form<NoticeFormValues>
          form={form}
          layout="vertical"
          onFinish={onFinish}
          requiredMark
          data-testid="notice-form"
          initialValues={{ bodyHtml: '', attachments: [] }}
        >
          {formError ? (
            <Alert
              type="error"
              showIcon
              title={formError}
              style={{ marginBottom: 16 }}
              data-testid="notice-form-error"
            />
          ) : null}
          <Form.Item
            name="title"
            label="标题"
            rules={[
              { required: true, whitespace: true, message: '请输入公告标题' },
              { max: 200, message: '标题不能超过200个字符' },
            ]}
          >
            <Input placeholder="请输入公告标题" maxLength={200} showCount data-testid="notice-title-input" />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="category" label="公告类别" rules={[{ required: true, message: '请选择公告类别' }]}>
                <Select options={options(NOTICE_CATEGORIES)} placeholder="请选择" data-testid="notice-category" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="tradeType" label="交易类型" rules={[{ required: true, message: '请选择交易类型' }]}>
                <Select options={options(TRADE_TYPES)} placeholder="请选择" data-testid="notice-trade-type" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="region" label="地区" rules={[{ required: true, message: '请选择地区' }]}>
                <Select options={options(REGIONS)} placeholder="请选择" data-testid="notice-region" />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="projectCode" label="项目编号" rules={[{ max: 64, message: '项目编号不能超过64个字符' }]}>
                <Input placeholder="如 E14010020260007" maxLength={64} data-testid="notice-project-code" />
              </Form.Item>
            </Col>
            <Col xs={24} md={16}>
              <Form.Item
                name="projectName"
                label="项目名称"
                tooltip="所属招标项目；招标项目模块上线后改为从项目中选择"
                rules={[{ max: 200, message: '项目名称不能超过200个字符' }]}
              >
                <Input placeholder="选填" maxLength={200} data-testid="notice-project-name" />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item
                name="sectionName"
                label="标段名称"
                rules={[{ max: 200, message: '标段名称不能超过200个字符' }]}
              >
                <Input placeholder="如 施工一标段" maxLength={200} data-testid="notice-section-name" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="tenderer" label="招标人" rules={[{ max: 200, message: '招标人不能超过200个字符' }]}>
                <Input placeholder="选填" maxLength={200} data-testid="notice-tenderer" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                name="amount"
                label="金额"
                rules={[{ pattern: AMOUNT_PATTERN, message: '金额格式有误（元，最多两位小数）' }]}
              >
                <Input placeholder="选填" suffix="元" maxLength={17} data-testid="notice-amount" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item
            name="bodyHtml"
            label="正文"
            extra="图片请用编辑器上传；外部链接仅限 http/https 网址，在门户中以新窗口打开"
            validateTrigger={['onChange', 'onBlur']}
            rules={[
              { required: true, whitespace: true, message: '请填写内容' },
              {
                validator: async (_, v: string) => {
                  const problem = noticeBodyProblem(v);
                  if (problem) throw new Error(problem);
                },
              },
            ]}
          >
            <LazyRichTextEditor data-testid="notice-body" />
          </Form.Item>
          <Form.Item
            name="attachments"
            label="附件"
            extra={`支持 ${NOTICE_EXTENSIONS.join('、')}，最多 ${MAX_NOTICE_ATTACHMENTS} 个；附件公开提供下载`}
            rules={[
              {
                validator: async (_, list: NoticeAttachment[] | undefined) => {
                  if ((list ?? []).some((a) => fileIdOfUrl(a.url) === null)) {
                    throw new Error(NOTICE_LINK_MESSAGES.attachmentNotOurs);
                  }
                },
              },
            ]}
          >
            <NoticeAttachmentsField onBusyChange={setUploading} />
          </Form.Item>
        </Form>
      )}
      <NoticePreview open={previewing} onClose={() => setPreviewing(false)} values={watched ?? {}} />
    </Drawer>
  );
}
