import { PlusOutlined } from '@ant-design/icons';
import { CODE_PATTERN, COLUMN_TYPES, LIST_ALIGNMENTS, type TableColumn } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Empty,
  Form,
  Input,
  InputNumber,
  Select,
  Skeleton,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { saveColumns, tableColumnsKey, tableColumnsQuery } from '../../api/config';
import { nodeFieldsQuery } from '../../api/engine';
import { applySaveError, LoadError, RowOps, RowsTable, SaveErrorAlert, uniqueInList } from '../../components/admin';
import { listColumns, OPERATIONS_COLUMN, STATUS_COLUMN } from '../../engine/model';
import { ConfigLayout, NodeTargetBar, useNodeTarget } from './shared';

export const MAX_COLUMNS = 60;

/** Labels of the §3 column types. */
export const COLUMN_TYPE_LABELS: Record<(typeof COLUMN_TYPES)[number], string> = {
  text: '文本',
  status: '状态',
  statusIcon: '状态图标',
  preview: '预览',
  download: '下载',
  auditFlow: '审核流程',
  changeStatus: '变更状态',
  dui: '对号',
  switch: '开关',
  link: '链接',
  state: '状态值',
  operations: '操作',
};

interface ColumnRow {
  code: string;
  name: string;
  type: TableColumn['type'];
  show: boolean;
  isSearch: boolean;
  isStatus: boolean;
  listAlignment: TableColumn['listAlignment'];
  width: number | null;
}

interface ColumnsForm {
  columns: ColumnRow[];
}

export const blankColumn = (): ColumnRow => ({
  code: '',
  name: '',
  type: 'text',
  show: true,
  isSearch: false,
  isStatus: false,
  listAlignment: '居中',
  width: null,
});

/** Form rows → the columns the server takes (trimmed; an empty width is null). */
export function toColumns(rows: ColumnRow[]): TableColumn[] {
  return rows.map((r) => ({
    code: r.code.trim(),
    name: r.name.trim(),
    type: r.type,
    show: !!r.show,
    isSearch: !!r.isSearch,
    isStatus: !!r.isStatus,
    listAlignment: r.listAlignment,
    width: r.width ?? null,
  }));
}

const ALIGN: Record<string, 'left' | 'center' | 'right'> = { 左对齐: 'left', 右对齐: 'right' };

/**
 * The columns the node's list really shows for these rows: the shown ones, or — with none configured — the defaults
 * made from the node's fields, plus what the list adds (操作 when missing; 状态 on an apply list).
 */
export function shownColumns(rows: ColumnRow[], fields: Parameters<typeof listColumns>[1], apply: boolean) {
  const configured = toColumns(rows.filter((r) => r?.code?.trim()));
  return listColumns(configured, fields, { requireStatus: apply }).filter((c) => c.show);
}

/** The count under the editor: how many columns are configured, and how many the list shows. */
export function columnsSummary(configured: number, shown: TableColumn[], fromFields: boolean): string {
  const added = shown
    .filter((c) => c.code === OPERATIONS_COLUMN || c.code === STATUS_COLUMN)
    .map((c) => `「${c.name}」`);
  const parts = [`已配置 ${configured} 列（最多 ${MAX_COLUMNS} 列）`, `列表实际显示 ${shown.length} 列`];
  if (fromFields) parts.push('未配置列时按节点字段显示');
  if (added.length) parts.push(`含自动补充的${added.join('')}列`);
  return parts.join('；');
}

/** The list as users will see it: the columns it shows with their names, alignment and width. */
function ColumnsPreview({ shown }: { shown: TableColumn[] }) {
  if (!shown.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无显示的列" />;
  return (
    <Table
      size="small"
      pagination={false}
      rowKey="__key"
      bordered
      scroll={{ x: 'max-content' }}
      data-testid="columns-preview"
      columns={[
        { title: '序号', key: '__no', width: 56, align: 'center', render: (_, __, i) => i + 1 },
        ...shown.map((r) => ({
          title: r.name || r.code,
          dataIndex: r.code,
          key: r.code,
          width: r.width ?? undefined,
          align: ALIGN[r.listAlignment] ?? ('center' as const),
        })),
      ]}
      // header cells named for the test; the sample values below are marked as such by the card's title
      onHeaderRow={() => ({ 'data-testid': 'columns-preview-head' }) as never}
      dataSource={[1, 2].map((n) => ({
        __key: n,
        ...Object.fromEntries(shown.map((r) => [r.code, `${r.name || r.code}${n}`])),
      }))}
    />
  );
}

function ColumnsEditor({
  gnCoding,
  systemCoding,
  apply,
}: {
  gnCoding: string;
  systemCoding: string | null;
  /** an apply list (申请列表) always shows a status column */
  apply: boolean;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ColumnsForm>();
  const columns = useQuery(tableColumnsQuery(gnCoding));
  const watched = Form.useWatch('columns', form) as ColumnRow[] | undefined;
  const rows = useMemo(() => watched ?? [], [watched]);
  // the node's fields: a list without configured columns shows columns made from them
  const nodeFields = useQuery(nodeFieldsQuery(gnCoding, systemCoding ?? ''));
  const fields = nodeFields.data?.fields;
  const shown = useMemo(() => shownColumns(rows, fields ?? [], apply), [rows, fields, apply]);
  const configuredCount = rows.filter((r) => r?.code?.trim()).length;
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);

  const load = useCallback(
    (data: TableColumn[]) => {
      form.resetFields();
      form.setFieldsValue({ columns: data.map((c) => ({ ...blankColumn(), ...c })) });
      setErrors([]);
    },
    [form],
  );

  useEffect(() => {
    if (columns.data) load(columns.data);
  }, [columns.data, load]);

  const onFinish = async (v: ColumnsForm) => {
    if (saving) return;
    setSaving(true);
    setErrors([]);
    const body = toColumns(v.columns ?? []);
    try {
      const saved = await saveColumns(gnCoding, body);
      queryClient.setQueryData(tableColumnsKey(gnCoding), saved);
      void message.success('保存成功');
    } catch (err) {
      setErrors(
        applySaveError(
          err,
          form,
          (name) => name.length === 3 && name[0] === 'columns' && Number(name[1]) < body.length,
        ),
      );
    } finally {
      setSaving(false);
    }
  };

  if (columns.isError) return <LoadError error={columns.error} what="列表列" />;
  if (columns.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;

  return (
    <Form<ColumnsForm> form={form} onFinish={onFinish} initialValues={{ columns: [] }} data-testid="columns-form">
      <SaveErrorAlert lines={errors} testId="columns-error" />
      <Form.List name="columns">
        {(fields, { add, remove, move }) => {
          const tableColumns: TableColumnsType<(typeof fields)[number]> = [
            { title: '序号', key: 'no', width: 56, align: 'center', render: (_, __, i) => i + 1 },
            {
              title: '字段编码',
              key: 'code',
              width: 170,
              render: (_, f) => (
                <Form.Item
                  name={[f.name, 'code']}
                  style={{ marginBottom: 0 }}
                  rules={[
                    { required: true, message: '请输入字段编码' },
                    { pattern: CODE_PATTERN, message: '字段编码须以字母开头，由字母、数字、下划线组成' },
                    uniqueInList('columns', 'code', '列编码不能重复'),
                  ]}
                >
                  <Input placeholder="如 projectName" maxLength={63} data-testid="column-code" />
                </Form.Item>
              ),
            },
            {
              title: '列名',
              key: 'name',
              width: 150,
              render: (_, f) => (
                <Form.Item
                  name={[f.name, 'name']}
                  style={{ marginBottom: 0 }}
                  rules={[
                    { required: true, whitespace: true, message: '请输入列名' },
                    { max: 30, message: '最多 30 个字符' },
                  ]}
                >
                  <Input placeholder="列名" maxLength={30} data-testid="column-name" />
                </Form.Item>
              ),
            },
            {
              title: '类型',
              key: 'type',
              width: 130,
              render: (_, f) => (
                <Form.Item name={[f.name, 'type']} style={{ marginBottom: 0 }}>
                  <Select
                    aria-label="类型"
                    options={COLUMN_TYPES.map((t) => ({ value: t, label: `${COLUMN_TYPE_LABELS[t]}（${t}）` }))}
                    popupMatchSelectWidth={false}
                    data-testid="column-type"
                  />
                </Form.Item>
              ),
            },
            ...(['show', 'isSearch', 'isStatus'] as const).map((key) => ({
              title: { show: '显示', isSearch: '搜索', isStatus: '状态列' }[key],
              key,
              width: 72,
              align: 'center' as const,
              render: (_: unknown, f: (typeof fields)[number]) => (
                <Form.Item name={[f.name, key]} valuePropName="checked" style={{ marginBottom: 0 }}>
                  <Switch
                    size="small"
                    aria-label={{ show: '显示', isSearch: '搜索', isStatus: '状态列' }[key]}
                    data-testid={`column-${key}`}
                  />
                </Form.Item>
              ),
            })),
            {
              title: '对齐',
              key: 'listAlignment',
              width: 110,
              render: (_, f) => (
                <Form.Item name={[f.name, 'listAlignment']} style={{ marginBottom: 0 }}>
                  <Select
                    aria-label="对齐"
                    options={LIST_ALIGNMENTS.map((a) => ({ value: a, label: a }))}
                    data-testid="column-align"
                  />
                </Form.Item>
              ),
            },
            {
              title: '宽度',
              key: 'width',
              width: 110,
              render: (_, f) => (
                <Form.Item name={[f.name, 'width']} style={{ marginBottom: 0 }}>
                  <InputNumber
                    min={40}
                    max={800}
                    precision={0}
                    placeholder="自适应"
                    style={{ width: '100%' }}
                    aria-label="宽度"
                    data-testid="column-width"
                  />
                </Form.Item>
              ),
            },
            {
              title: '操作',
              key: 'ops',
              width: 110,
              fixed: 'right',
              render: (_, f, i) => (
                <RowOps index={i} count={fields.length} move={move} onRemove={() => remove(f.name)} testId="column" />
              ),
            },
          ];
          return (
            <>
              <RowsTable fields={fields} columns={tableColumns} scrollX={1150} testId="columns-table" />
              <Space style={{ marginTop: 12 }}>
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  disabled={fields.length >= MAX_COLUMNS}
                  onClick={() => add(blankColumn())}
                  data-testid="column-add"
                >
                  新增列
                </Button>
                <Typography.Text type="secondary" data-testid="columns-count">
                  {columnsSummary(configuredCount, shown, configuredCount === 0)}
                </Typography.Text>
              </Space>
            </>
          );
        }}
      </Form.List>
      <Card size="small" title="预览（示例数据）" style={{ marginTop: 16 }}>
        <ColumnsPreview shown={shown} />
      </Card>
      <div style={{ marginTop: 16, textAlign: 'right' }}>
        <Space>
          <Button onClick={() => columns.data && load(columns.data)} disabled={saving} data-testid="reset-columns">
            撤销修改
          </Button>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="save-columns">
            保存
          </Button>
        </Space>
      </div>
    </Form>
  );
}

/** 列表列设置 `/system/setUpList?gnCoding=X`: the list columns of one node. */
export default function SetUpListPage() {
  const target = useNodeTarget();
  return (
    <ConfigLayout title="列表列设置">
      <Card title="列表列设置" data-testid="setup-list">
        <NodeTargetBar target={target} current="/system/setUpList" />
        {target.gnCoding ? (
          <ColumnsEditor
            key={target.gnCoding}
            gnCoding={target.gnCoding}
            systemCoding={target.systemCoding}
            apply={target.preview.data?.node.nodeProperties === 'applyList'}
          />
        ) : (
          <Empty description="请选择系统与节点" data-testid="no-node" />
        )}
      </Card>
    </ConfigLayout>
  );
}
