import { PlusOutlined } from '@ant-design/icons';
import { FUNCTION_CODE_PATTERN, FUNCTION_KINDS, type NodeFunction } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  ColorPicker,
  Form,
  Input,
  Select,
  Skeleton,
  Space,
  Switch,
  type TableColumnsType,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { functionListKey, functionListQuery, saveNodeFunctions, standardButtonsQuery } from '../../api/config';
import { applySaveError, LoadError, RowOps, RowsTable, SaveErrorAlert, uniqueInList } from '../../components/admin';
import { colorValue } from './shared';

export const MAX_FUNCTIONS = 40;
const KIND_LABELS: Record<(typeof FUNCTION_KINDS)[number], string> = { table: '列表按钮', form: '表单按钮' };

interface FunctionsForm {
  functions: NodeFunction[];
}

/** The buttons (functions) of one node: from the standard dictionary or custom, reorder, save. */
export function NodeFunctionsEditor({ gnCoding }: { gnCoding: string }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FunctionsForm>();
  const list = useQuery(functionListQuery(gnCoding));
  const dictionary = useQuery(standardButtonsQuery);
  const current = Form.useWatch('functions', form) as NodeFunction[] | undefined;
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);

  useEffect(() => {
    if (!list.data) return;
    form.setFieldsValue({ functions: list.data.map((f) => ({ ...f })) });
    setErrors([]);
  }, [list.data, form]);

  const onFinish = async (v: FunctionsForm) => {
    if (saving) return;
    setSaving(true);
    setErrors([]);
    const functions = (v.functions ?? []).map((f) => ({
      code: f.code.trim(),
      name: f.name.trim(),
      color: colorValue(f.color),
      show: !!f.show,
      kind: f.kind,
    }));
    try {
      const saved = await saveNodeFunctions(gnCoding, functions);
      queryClient.setQueryData(functionListKey(gnCoding), saved);
      void message.success('保存成功');
    } catch (err) {
      setErrors(
        applySaveError(
          err,
          form,
          (name) => name.length === 3 && name[0] === 'functions' && Number(name[1]) < functions.length,
        ),
      );
    } finally {
      setSaving(false);
    }
  };

  if (list.isError) return <LoadError error={list.error} what="按钮" />;
  if (list.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;

  const usedCodes = new Set((current ?? []).map((f) => f?.code));
  const dictionaryOptions = (dictionary.data ?? []).map((b) => ({
    value: b.code,
    label: `${b.name}（${b.code}）`,
    disabled: usedCodes.has(b.code),
  }));

  return (
    <Form<FunctionsForm> form={form} onFinish={onFinish} initialValues={{ functions: [] }} data-testid="functions-form">
      <SaveErrorAlert lines={errors} testId="functions-error" />
      <Form.List name="functions">
        {(fields, { add, remove, move }) => {
          const full = fields.length >= MAX_FUNCTIONS;
          const columns: TableColumnsType<(typeof fields)[number]> = [
            { title: '序号', key: 'no', width: 56, align: 'center', render: (_, __, i) => i + 1 },
            {
              title: '编码',
              key: 'code',
              width: 150,
              render: (_, f) => (
                <Form.Item
                  name={[f.name, 'code']}
                  style={{ marginBottom: 0 }}
                  rules={[
                    { required: true, message: '请输入按钮编码' },
                    { pattern: FUNCTION_CODE_PATTERN, message: '按钮编码须以字母开头，由字母、数字、下划线组成' },
                    uniqueInList('functions', 'code', '按钮编码不能重复'),
                  ]}
                >
                  <Input placeholder="编码" maxLength={40} data-testid="function-code" />
                </Form.Item>
              ),
            },
            {
              title: '名称',
              key: 'name',
              width: 140,
              render: (_, f) => (
                <Form.Item
                  name={[f.name, 'name']}
                  style={{ marginBottom: 0 }}
                  rules={[
                    { required: true, whitespace: true, message: '请输入按钮名称' },
                    { max: 20, message: '最多 20 个字符' },
                  ]}
                >
                  <Input placeholder="名称" maxLength={20} data-testid="function-name" />
                </Form.Item>
              ),
            },
            {
              title: '颜色',
              key: 'color',
              width: 120,
              render: (_, f) => (
                <Form.Item name={[f.name, 'color']} style={{ marginBottom: 0 }} getValueFromEvent={colorValue}>
                  <ColorPicker disabledAlpha showText size="small" format="hex" />
                </Form.Item>
              ),
            },
            {
              title: '显示',
              key: 'show',
              width: 70,
              render: (_, f) => (
                <Form.Item name={[f.name, 'show']} valuePropName="checked" style={{ marginBottom: 0 }}>
                  <Switch size="small" aria-label="显示" data-testid="function-show" />
                </Form.Item>
              ),
            },
            {
              title: '位置',
              key: 'kind',
              width: 120,
              render: (_, f) => (
                <Form.Item name={[f.name, 'kind']} style={{ marginBottom: 0 }}>
                  <Select
                    size="small"
                    options={FUNCTION_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
                    aria-label="位置"
                  />
                </Form.Item>
              ),
            },
            {
              title: '操作',
              key: 'ops',
              width: 120,
              render: (_, f, i) => (
                <RowOps
                  index={i}
                  count={fields.length}
                  move={move}
                  onRemove={() => remove(f.name)}
                  testId="function"
                  removeLabel="移除"
                />
              ),
            },
          ];
          return (
            <>
              <Space wrap style={{ marginBottom: 12 }}>
                <Select<string>
                  placeholder="从标准按钮添加"
                  style={{ width: 200 }}
                  value={null}
                  disabled={full}
                  loading={dictionary.isPending}
                  options={dictionaryOptions}
                  onChange={(code) => {
                    const b = dictionary.data?.find((x) => x.code === code);
                    if (b) add({ ...b, show: true });
                  }}
                  data-testid="function-dictionary"
                  aria-label="从标准按钮添加"
                  notFoundContent="暂无数据"
                />
                <Button
                  icon={<PlusOutlined />}
                  disabled={full}
                  onClick={() => add({ code: '', name: '', color: '#409EFF', show: true, kind: 'table' })}
                  data-testid="function-add-custom"
                >
                  自定义按钮
                </Button>
                <Typography.Text type="secondary">
                  共 {fields.length} 个，最多 {MAX_FUNCTIONS} 个
                </Typography.Text>
              </Space>
              <RowsTable fields={fields} columns={columns} scrollX={780} testId="functions-table" />
            </>
          );
        }}
      </Form.List>
      <div style={{ marginTop: 16, textAlign: 'right' }}>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="save-functions">
          保存按钮
        </Button>
      </div>
    </Form>
  );
}
