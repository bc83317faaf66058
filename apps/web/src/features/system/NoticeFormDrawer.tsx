import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  type AdminNotice,
  NOTICE_CATEGORIES,
  type NoticeCategory,
  type NoticeInput,
  REGIONS,
  TRADE_TYPES,
  type TradeType,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Col, Drawer, Form, Input, Row, Select, Skeleton, Space } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { adminNoticeDetailQuery, type NoticeSaveBody, saveNotice } from '../../api/portalAdmin';
import { type ApiError, isApiError, reportApiError } from '../../api/request';
import { sanitizeHtml } from '../../lib/sanitize';

export const AMOUNT_PATTERN = /^\d{1,14}(\.\d{1,2})?$/;
const MAX_ATTACHMENTS = 20;

export interface NoticeFormValues {
  title: string;
  category?: NoticeCategory;
  tradeType?: TradeType;
  region?: string;
  projectCode?: string;
  tenderer?: string;
  amount?: string;
  bodyHtml: string;
  attachments: { name?: string; url?: string }[];
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
    tenderer: blank(v.tenderer),
    amount: blank(v.amount),
    bodyHtml: v.bodyHtml,
    attachments: (v.attachments ?? [])
      .map((a) => ({ name: a.name?.trim() ?? '', url: a.url?.trim() ?? '' }))
      .filter((a) => a.name || a.url),
  };
}

function toFormValues(n: AdminNotice): NoticeFormValues {
  return {
    title: n.title,
    category: n.category as NoticeCategory,
    tradeType: n.tradeType as TradeType,
    region: n.region,
    projectCode: n.projectCode ?? undefined,
    tenderer: n.tenderer ?? undefined,
    amount: n.amount ?? undefined,
    bodyHtml: n.bodyHtml,
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
  'tenderer',
  'amount',
  'bodyHtml',
  'attachments',
]);

/** The field errors of a 400 answer (data.fieldErrors keyed by field path), limited to fields of this form. */
export function fieldErrorsOf(err: ApiError): { name: (string | number)[]; errors: string[] }[] {
  const fe = (err.data as { fieldErrors?: Record<string, string[] | string> } | null)?.fieldErrors;
  if (err.status !== 400 || !fe || typeof fe !== 'object') return [];
  return Object.entries(fe)
    .filter(([key]) => FORM_FIELDS.has(key.split('.')[0]))
    .map(([key, msgs]) => ({ name: fieldPath(key), errors: Array.isArray(msgs) ? msgs.map(String) : [String(msgs)] }));
}

const options = (list: readonly string[]) => list.map((v) => ({ label: v, value: v }));

export interface NoticeFormDrawerProps {
  open: boolean;
  /** null: a new notice; otherwise the id of the notice to edit (loaded afresh for its latest version). */
  noticeId: string | null;
  onClose: () => void;
  onSaved: (notice: AdminNotice) => void;
}

/** Create or edit a notice: fields of NoticeInput, body HTML with a sanitised live preview, attachments as rows. */
export function NoticeFormDrawer({ open, noticeId, onClose, onSaved }: NoticeFormDrawerProps) {
  const { message } = App.useApp();
  const [form] = Form.useForm<NoticeFormValues>();
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const editing = noticeId !== null;
  const detail = useQuery({ ...adminNoticeDetailQuery(noticeId ?? ''), enabled: open && editing });
  const bodyHtml = Form.useWatch('bodyHtml', form);
  const preview = useMemo(() => sanitizeHtml(bodyHtml), [bodyHtml]);

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
    if (saving) return;
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
      message.success('保存成功');
      onSaved(saved);
    } catch (err) {
      if (!isApiError(err)) throw err;
      const fields = fieldErrorsOf(err);
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
            type="primary"
            loading={saving}
            disabled={loading || detail.isError}
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
                <Input placeholder="选填" maxLength={64} data-testid="notice-project-code" />
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
          <Row gutter={16}>
            <Col xs={24} lg={12}>
              <Form.Item
                name="bodyHtml"
                label="正文（HTML）"
                rules={[{ required: true, whitespace: true, message: '请填写内容' }]}
              >
                <Input.TextArea
                  rows={14}
                  placeholder="请填写内容"
                  data-testid="notice-body"
                  style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 }}
                />
              </Form.Item>
            </Col>
            <Col xs={24} lg={12}>
              <Form.Item label="预览（脚本与事件属性已移除）">
                <div
                  data-testid="notice-preview"
                  style={{
                    minHeight: 318,
                    maxHeight: 318,
                    overflow: 'auto',
                    padding: '8px 12px',
                    border: '1px solid #d9d9d9',
                    borderRadius: 6,
                    background: '#fafbfc',
                    lineHeight: 1.8,
                    wordBreak: 'break-word',
                  }}
                  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify (sanitizeHtml)
                  dangerouslySetInnerHTML={{ __html: preview }}
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.List name="attachments">
            {(fields, { add, remove }) => (
              <Form.Item label="附件" data-testid="notice-attachments">
                {fields.map((field) => (
                  <Row key={field.key} gutter={8} align="top" data-testid="notice-attachment-row">
                    <Col flex="220px">
                      <Form.Item
                        name={[field.name, 'name']}
                        rules={[
                          { required: true, whitespace: true, message: '请输入附件名称' },
                          { max: 200, message: '附件名称不能超过200个字符' },
                        ]}
                      >
                        <Input placeholder="附件名称" maxLength={200} />
                      </Form.Item>
                    </Col>
                    <Col flex="auto">
                      <Form.Item
                        name={[field.name, 'url']}
                        rules={[
                          { required: true, whitespace: true, message: '请输入附件地址' },
                          { max: 500, message: '附件地址不能超过500个字符' },
                          {
                            pattern: /^(https?:\/\/|\/(?!\/))\S+$/i,
                            message: '请输入 http(s) 地址或以 / 开头的站内路径',
                          },
                        ]}
                      >
                        <Input placeholder="https://… 或 /files/…" maxLength={500} />
                      </Form.Item>
                    </Col>
                    <Col flex="none">
                      <Button
                        icon={<DeleteOutlined />}
                        aria-label="删除附件"
                        title="删除附件"
                        onClick={() => remove(field.name)}
                      />
                    </Col>
                  </Row>
                ))}
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  disabled={fields.length >= MAX_ATTACHMENTS}
                  onClick={() => add({ name: '', url: '' })}
                  data-testid="notice-attachment-add"
                >
                  添加附件
                </Button>
              </Form.Item>
            )}
          </Form.List>
        </Form>
      )}
    </Drawer>
  );
}
