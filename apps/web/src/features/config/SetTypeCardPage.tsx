import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { CARD_WIDTHS, type CardStyle, CODE_PATTERN, type TableColumn } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  AutoComplete,
  Button,
  Card,
  Col,
  ColorPicker,
  Empty,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Skeleton,
  Space,
  Typography,
} from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { cardStyleKey, cardStyleQuery, saveCardStyle, tableColumnsQuery } from '../../api/config';
import { nodeFieldsQuery } from '../../api/engine';
import { applySaveError, LoadError, MoveButtons, SaveErrorAlert } from '../../components/admin';
import { CardPreview } from './previews';
import { ConfigLayout, colorValue, NodeTargetBar, useNodeTarget } from './shared';

export const MAX_CARD_CONTENTS = 12;
export const CARD_WIDTH_LABELS: Record<(typeof CARD_WIDTHS)[number], string> = {
  '100%': '100%（每行 1 张）',
  '50%': '50%（每行 2 张）',
  '33.3%': '33.3%（每行 3 张）',
};
const FONT_STYLES = [
  { value: 'normal', label: '常规' },
  { value: 'bold', label: '加粗' },
  { value: 'italic', label: '斜体' },
] as const;

type CardContent = CardStyle['contents'][number];

export const blankContent = (): CardContent => ({
  contentKey: '',
  label: '',
  fontSize: 14,
  color: '#303133',
  style: 'normal',
});

const EMPTY_STYLE: CardStyle = { titleKey: '', contents: [], width: '33.3%' };

/** Form values → the card style the server takes. */
export function toCardStyle(v: CardStyle): CardStyle {
  return {
    titleKey: (v.titleKey ?? '').trim(),
    contents: (v.contents ?? []).map((c) => ({
      contentKey: (c.contentKey ?? '').trim(),
      label: (c.label ?? '').trim(),
      fontSize: c.fontSize ?? 14,
      color: colorValue(c.color),
      style: c.style ?? 'normal',
    })),
    width: v.width ?? '33.3%',
  };
}

/** The node's field and column names by code (fields first: they name the values a card shows). */
export function fieldNames(
  fields: readonly { code: string; name: string }[] | undefined,
  columns: TableColumn[] | undefined,
) {
  const names = new Map<string, string>();
  for (const c of columns ?? []) if (c.name) names.set(c.code, c.name);
  for (const f of fields ?? []) if (f.name) names.set(f.code, f.name);
  return names;
}

/** The field choices: the node's fields and columns, by name (free entry is allowed as well). */
function fieldOptions(names: ReadonlyMap<string, string>) {
  return [...names].map(([code, name]) => ({ value: code, label: `${name}（${code}）` }));
}

const keyRules = (message: string) => [
  { required: true, message },
  { pattern: CODE_PATTERN, message },
];

function CardStyleEditor({ gnCoding, systemCoding }: { gnCoding: string; systemCoding: string | null }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CardStyle>();
  const style = useQuery(cardStyleQuery(gnCoding));
  const columns = useQuery(tableColumnsQuery(gnCoding));
  const nodeFields = useQuery(nodeFieldsQuery(gnCoding, systemCoding ?? ''));
  const values = Form.useWatch([], form) as CardStyle | undefined;
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const names = useMemo(() => fieldNames(nodeFields.data?.fields, columns.data), [nodeFields.data, columns.data]);
  const options = fieldOptions(names);

  const load = useCallback(
    (data: CardStyle | null) => {
      form.resetFields();
      form.setFieldsValue(data ? { ...EMPTY_STYLE, ...data } : EMPTY_STYLE);
      setErrors([]);
    },
    [form],
  );

  useEffect(() => {
    if (style.isSuccess) load(style.data);
  }, [style.isSuccess, style.data, load]);

  const onFinish = async (v: CardStyle) => {
    if (saving) return;
    setSaving(true);
    setErrors([]);
    const body = toCardStyle(v);
    try {
      const saved = await saveCardStyle(gnCoding, body);
      queryClient.setQueryData(cardStyleKey(gnCoding), saved);
      void message.success('保存成功');
    } catch (err) {
      setErrors(
        applySaveError(
          err,
          form,
          (name) =>
            (name.length === 1 && (name[0] === 'titleKey' || name[0] === 'width')) ||
            (name.length === 3 && name[0] === 'contents' && Number(name[1]) < body.contents.length),
          (name) => (name[0] === 'cardStyle' ? name.slice(1) : name),
        ),
      );
    } finally {
      setSaving(false);
    }
  };

  if (style.isError) return <LoadError error={style.error} what="卡片样式" />;
  if (style.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;

  const autoComplete = (testId: string, placeholder: string) => (
    <AutoComplete
      options={options}
      placeholder={placeholder}
      showSearch={{
        filterOption: (input, o) =>
          String(o?.value ?? '')
            .toLowerCase()
            .includes(input.toLowerCase()) ||
          String(o?.label ?? '')
            .toLowerCase()
            .includes(input.toLowerCase()),
      }}
      data-testid={testId}
      notFoundContent={columns.isPending ? '加载中…' : '该节点没有匹配的列，可直接输入字段编码'}
    />
  );

  return (
    <Row gutter={24}>
      <Col xs={24} xl={13}>
        {style.data === null ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title="该节点尚未设置卡片样式，保存后生效。"
            data-testid="card-not-set"
          />
        ) : null}
        <SaveErrorAlert lines={errors} testId="card-error" />
        <Form<CardStyle>
          form={form}
          layout="vertical"
          onFinish={onFinish}
          initialValues={EMPTY_STYLE}
          data-testid="card-form"
        >
          <Form.Item name="titleKey" label="标题字段" rules={keyRules('请选择标题字段')}>
            {autoComplete('card-title-key', '选择或输入字段编码')}
          </Form.Item>
          <Form.Item name="width" label="卡片宽度">
            <Radio.Group
              options={CARD_WIDTHS.map((w) => ({ value: w, label: CARD_WIDTH_LABELS[w] }))}
              data-testid="card-width"
            />
          </Form.Item>
          <Form.List name="contents">
            {(fields, { add, remove, move }) => (
              <Form.Item label={`内容项（${fields.length}/${MAX_CARD_CONTENTS}）`} data-testid="card-contents">
                {fields.length === 0 ? (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" style={{ margin: '8px 0' }} />
                ) : null}
                {fields.map((f, i) => (
                  <div
                    key={f.key}
                    data-testid="card-content-row"
                    style={{ border: '1px solid #eef0f5', borderRadius: 6, padding: '10px 10px 0', marginBottom: 8 }}
                  >
                    <Row gutter={8}>
                      <Col xs={24} md={8}>
                        <Form.Item name={[f.name, 'contentKey']} rules={keyRules('请选择内容字段')}>
                          {autoComplete('card-content-key', '字段编码')}
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={7}>
                        <Form.Item name={[f.name, 'label']} rules={[{ max: 30, message: '最多 30 个字符' }]}>
                          <Input placeholder="显示名称（可空）" maxLength={30} data-testid="card-content-label" />
                        </Form.Item>
                      </Col>
                      <Col xs={12} md={4}>
                        <Form.Item name={[f.name, 'fontSize']} rules={[{ required: true, message: '请输入字号' }]}>
                          <InputNumber
                            min={10}
                            max={32}
                            precision={0}
                            suffix="px"
                            style={{ width: '100%' }}
                            aria-label="字号"
                            data-testid="card-content-size"
                          />
                        </Form.Item>
                      </Col>
                      <Col xs={12} md={5}>
                        <Form.Item name={[f.name, 'style']}>
                          <Select options={[...FONT_STYLES]} aria-label="字形" data-testid="card-content-style" />
                        </Form.Item>
                      </Col>
                    </Row>
                    <Row gutter={8} align="middle" style={{ marginBottom: 10 }}>
                      <Col flex="auto">
                        <Form.Item name={[f.name, 'color']} noStyle getValueFromEvent={colorValue}>
                          <ColorPicker disabledAlpha showText size="small" format="hex" />
                        </Form.Item>
                      </Col>
                      <Col flex="none">
                        <Space size={0}>
                          <MoveButtons index={i} count={fields.length} move={move} />
                          <Button
                            type="text"
                            size="small"
                            danger
                            icon={<DeleteOutlined />}
                            aria-label="删除内容项"
                            onClick={() => remove(f.name)}
                            data-testid="card-content-remove"
                          />
                        </Space>
                      </Col>
                    </Row>
                  </div>
                ))}
                <Button
                  type="dashed"
                  block
                  icon={<PlusOutlined />}
                  disabled={fields.length >= MAX_CARD_CONTENTS}
                  onClick={() => add(blankContent())}
                  data-testid="card-content-add"
                >
                  新增内容项
                </Button>
              </Form.Item>
            )}
          </Form.List>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="save-card">
              保存
            </Button>
            <Button onClick={() => load(style.data ?? null)} disabled={saving}>
              撤销修改
            </Button>
          </Space>
        </Form>
      </Col>
      <Col xs={24} xl={11}>
        <Card size="small" title="预览">
          <CardPreview style={values} names={names} />
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 12, marginBottom: 0 }}>
            预览中的内容为示例数据，不代表节点的实际数据。
          </Typography.Paragraph>
        </Card>
      </Col>
    </Row>
  );
}

/** 卡片样式 `/system/setTypeCard?gnCoding=X`: the card style of one node with a live preview. */
export default function SetTypeCardPage() {
  const target = useNodeTarget();
  return (
    <ConfigLayout title="卡片样式">
      <Card title="卡片样式" data-testid="set-type-card">
        <NodeTargetBar target={target} current="/system/setTypeCard" />
        {target.gnCoding ? (
          <CardStyleEditor key={target.gnCoding} gnCoding={target.gnCoding} systemCoding={target.systemCoding} />
        ) : (
          <Empty description="请选择系统与节点" data-testid="no-node" />
        )}
      </Card>
    </ConfigLayout>
  );
}
