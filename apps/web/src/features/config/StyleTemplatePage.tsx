import type { StyleTemplate } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Radio,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import {
  applyStyleTemplate,
  CONFIG_KEY,
  createStyleTemplate,
  deleteStyleTemplate,
  styleTemplatesKey,
  styleTemplatesQuery,
} from '../../api/config';
import { CreateButton, FormDialog, LoadError, NodePicker, RefreshButton } from '../../components/admin';
import { formatDateTime } from '../../lib/format';
import { CardPreview, ColumnsStrip } from './previews';
import { ConfigLayout } from './shared';

export const TEMPLATE_KIND_LABELS = { table: '列表列', card: '卡片样式' } as const;

interface CreateValues {
  name: string;
  kind: 'table' | 'card';
  fromGnCoding: string;
}

/** What a template holds, in a few words. */
export function templateSummary(t: StyleTemplate): string {
  if (t.kind === 'table') {
    const cols = t.columns ?? [];
    return `${cols.length} 列（显示 ${cols.filter((c) => c.show).length} 列）`;
  }
  const s = t.cardStyle;
  return s ? `标题 ${s.titleKey}，${s.contents.length} 项内容，宽 ${s.width}` : '—';
}

function TemplatePreview({ t }: { t: StyleTemplate }) {
  return (
    <div data-testid="template-preview" style={{ padding: '4px 8px' }}>
      {t.kind === 'table' ? <ColumnsStrip columns={t.columns} /> : <CardPreview style={t.cardStyle} count={2} />}
    </div>
  );
}

function CreateTemplateModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  return (
    <FormDialog<CreateValues>
      open={open}
      title="新建样式模板"
      values={() => ({ kind: 'table' })}
      fields={(name) => name.length === 1 && ['name', 'kind', 'fromGnCoding'].includes(String(name[0]))}
      submit={(v) => createStyleTemplate({ name: v.name.trim(), kind: v.kind, fromGnCoding: v.fromGnCoding })}
      onClose={onClose}
      onSaved={onCreated}
      testId="template-save"
      errorTestId="template-form-error"
      width={640}
      dialogTestId="template-create-modal"
      keepMounted={false}
    >
      <Form.Item
        name="name"
        label="模板名称"
        rules={[
          { required: true, whitespace: true, message: '请输入模板名称' },
          { max: 30, message: '最多 30 个字符' },
        ]}
      >
        <Input placeholder="请输入模板名称" maxLength={30} data-testid="template-name" />
      </Form.Item>
      <Form.Item name="kind" label="模板类型">
        <Radio.Group
          options={[
            { value: 'table', label: TEMPLATE_KIND_LABELS.table },
            { value: 'card', label: TEMPLATE_KIND_LABELS.card },
          ]}
          data-testid="template-kind"
        />
      </Form.Item>
      <Form.Item
        name="fromGnCoding"
        label="取自节点"
        extra="以该节点当前的列表列或卡片样式生成模板"
        rules={[{ required: true, message: '请选择节点' }]}
      >
        <NodePicker testId="template-source" />
      </Form.Item>
    </FormDialog>
  );
}

function ApplyTemplateModal({ template, onClose }: { template: StyleTemplate | null; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [gnCoding, setGnCoding] = useState<string | null>(null);
  const apply = useMutation({
    mutationFn: (body: { id: string; gnCoding: string }) => applyStyleTemplate(body),
    onSuccess: (_, body) => {
      void message.success('操作成功');
      for (const part of ['columns', 'cardStyle', 'preview']) {
        void queryClient.invalidateQueries({ queryKey: [...CONFIG_KEY, part, body.gnCoding] });
      }
      setGnCoding(null);
      onClose();
    },
  });
  return (
    <Modal
      open={!!template}
      title={template ? `应用模板 · ${template.name}` : '应用模板'}
      onCancel={() => {
        setGnCoding(null);
        onClose();
      }}
      onOk={() => template && gnCoding && apply.mutate({ id: template.id, gnCoding })}
      okText="应用"
      cancelText="取消"
      okButtonProps={{ disabled: !gnCoding, 'data-testid': 'template-apply-ok' } as ButtonProps}
      confirmLoading={apply.isPending}
      destroyOnHidden
      width={640}
      data-testid="template-apply-modal"
    >
      <Typography.Paragraph type="secondary">
        将覆盖目标节点当前的{template ? TEMPLATE_KIND_LABELS[template.kind] : '样式'}。
      </Typography.Paragraph>
      <NodePicker value={gnCoding} onChange={setGnCoding} testId="template-target" />
    </Modal>
  );
}

/** 样式模板 `/system/styleTemplate`: saved list-column and card styles, created from a node and applied to others. */
export default function StyleTemplatePage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const templates = useQuery(styleTemplatesQuery);
  const [creating, setCreating] = useState(false);
  const [applying, setApplying] = useState<StyleTemplate | null>(null);
  const [folded, setFolded] = useState<Set<string>>(new Set());
  const refresh = () => void queryClient.invalidateQueries({ queryKey: styleTemplatesKey });

  const remove = useMutation({
    mutationFn: (id: string) => deleteStyleTemplate(id),
    onSuccess: () => {
      void message.success('删除成功');
      refresh();
    },
  });

  const columns: TableColumnsType<StyleTemplate> = [
    { title: '模板名称', dataIndex: 'name', ellipsis: true },
    {
      title: '类型',
      dataIndex: 'kind',
      width: 110,
      render: (k: StyleTemplate['kind']) => (
        <Tag color={k === 'table' ? 'blue' : 'purple'}>{TEMPLATE_KIND_LABELS[k] ?? k}</Tag>
      ),
    },
    { title: '内容', key: 'summary', render: (_, t) => templateSummary(t) },
    { title: '创建时间', dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
    {
      title: '操作',
      key: 'ops',
      width: 150,
      render: (_, t) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setApplying(t)} data-testid="template-apply">
            应用到节点
          </Button>
          <Popconfirm
            title={`确认删除模板「${t.name}」？已应用的节点不受影响。`}
            okText="删除"
            cancelText="取消"
            okButtonProps={{ danger: true, 'data-testid': 'confirm-ok' } as ButtonProps}
            onConfirm={() => remove.mutateAsync(t.id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger disabled={remove.isPending} data-testid="template-delete">
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <ConfigLayout title="样式模板">
      <Card
        title="样式模板"
        data-testid="style-templates"
        extra={
          <Space>
            <RefreshButton onClick={refresh} query={templates} />
            <CreateButton onClick={() => setCreating(true)} testId="template-create">
              新建模板
            </CreateButton>
          </Space>
        }
      >
        {templates.isError ? (
          <LoadError error={templates.error} what="样式模板" />
        ) : (
          <Table<StyleTemplate>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={templates.data ?? []}
            loading={templates.isFetching}
            locale={{ emptyText: '暂无数据' }}
            pagination={false}
            expandable={{
              expandedRowRender: (t) => <TemplatePreview t={t} />,
              // every preview open unless the user folds it
              expandedRowKeys: (templates.data ?? []).map((t) => t.id).filter((id) => !folded.has(id)),
              onExpand: (open, t) =>
                setFolded((f) => {
                  const next = new Set(f);
                  if (open) next.delete(t.id);
                  else next.add(t.id);
                  return next;
                }),
            }}
            data-testid="template-table"
          />
        )}
      </Card>
      <CreateTemplateModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          refresh();
        }}
      />
      <ApplyTemplateModal template={applying} onClose={() => setApplying(null)} />
    </ConfigLayout>
  );
}
