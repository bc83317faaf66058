import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { CHART_MEASURES, CHART_TYPES, type Chart, CODE_PATTERN, type TableColumn } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  AutoComplete,
  Button,
  Card,
  Col,
  Empty,
  Form,
  Input,
  Row,
  Select,
  Skeleton,
  Space,
  Typography,
} from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { chartDataKey, chartsKey, chartsQuery, saveCharts, tableColumnsQuery } from '../../api/config';
import { applySaveError, LoadError, MoveButtons, SaveErrorAlert } from '../../components/admin';
import { ChartPreview } from './ChartPreview';
import { ConfigLayout, NodeTargetBar, useNodeTarget } from './shared';

export const MAX_CHARTS = 12;
export const MEASURE_LABELS: Record<(typeof CHART_MEASURES)[number], string> = {
  count: '计数',
  sum: '求和',
  avg: '平均值',
  max: '最大值',
  min: '最小值',
};
export const MEASURE_FIELD_REQUIRED = '求和、平均、最大、最小需要选择度量字段';

interface ChartRow {
  title: string;
  type: Chart['type'];
  dimension: string;
  measure: Chart['measure'];
  measureField: string | null;
}

interface ChartsForm {
  charts: ChartRow[];
}

export const blankChart = (): ChartRow => ({
  title: '',
  type: 'bar',
  dimension: '',
  measure: 'count',
  measureField: null,
});

/** Form rows → the charts the server takes (no measure field for a count). */
export function toCharts(rows: ChartRow[]): Chart[] {
  return rows.map((r) => ({
    title: r.title.trim(),
    type: r.type,
    dimension: (r.dimension ?? '').trim(),
    measure: r.measure,
    measureField: r.measure === 'count' ? null : (r.measureField ?? '').trim() || null,
  }));
}

function fieldOptions(columns: TableColumn[] | undefined) {
  return (columns ?? []).map((c) => ({ value: c.code, label: `${c.name}（${c.code}）` }));
}

function ChartsEditor({ gnCoding }: { gnCoding: string }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ChartsForm>();
  const charts = useQuery(chartsQuery(gnCoding));
  const columns = useQuery(tableColumnsQuery(gnCoding));
  const rows = (Form.useWatch('charts', form) as ChartRow[] | undefined) ?? [];
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const options = fieldOptions(columns.data);

  const load = useCallback(
    (data: Chart[]) => {
      form.resetFields();
      form.setFieldsValue({ charts: data.map((c) => ({ ...blankChart(), ...c })) });
      setErrors([]);
    },
    [form],
  );

  useEffect(() => {
    if (charts.data) load(charts.data);
  }, [charts.data, load]);

  const onFinish = async (v: ChartsForm) => {
    if (saving) return;
    setSaving(true);
    setErrors([]);
    const body = toCharts(v.charts ?? []);
    try {
      const saved = await saveCharts(gnCoding, body);
      queryClient.setQueryData(chartsKey(gnCoding), saved);
      void queryClient.invalidateQueries({ queryKey: chartDataKey(gnCoding) });
      void message.success('保存成功');
    } catch (err) {
      setErrors(
        applySaveError(err, form, (name) => name.length === 3 && name[0] === 'charts' && Number(name[1]) < body.length),
      );
    } finally {
      setSaving(false);
    }
  };

  if (charts.isError) return <LoadError error={charts.error} what="图表" />;
  if (charts.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;

  const fieldInput = (testId: string, disabled = false) => (
    <AutoComplete
      options={options}
      disabled={disabled}
      placeholder={disabled ? '计数无需度量字段' : '选择或输入字段编码'}
      showSearch={{
        filterOption: (input, o) => `${o?.value ?? ''} ${o?.label ?? ''}`.toLowerCase().includes(input.toLowerCase()),
      }}
      data-testid={testId}
    />
  );

  return (
    <Form<ChartsForm> form={form} onFinish={onFinish} layout="vertical" initialValues={{ charts: [] }}>
      <SaveErrorAlert lines={errors} testId="charts-error" />
      <Form.List name="charts">
        {(fields, { add, remove, move }) => (
          <>
            {fields.length === 0 ? <Empty description="暂无数据" style={{ margin: '16px 0' }} /> : null}
            {fields.map((f, i) => {
              const row = rows[f.name] ?? blankChart();
              const isCount = row.measure === 'count';
              return (
                <Card
                  key={f.key}
                  size="small"
                  style={{ marginBottom: 12 }}
                  data-testid="chart-row"
                  title={`图表 ${i + 1}${row.title ? ` · ${row.title}` : ''}`}
                  extra={
                    <Space size={0}>
                      <MoveButtons index={i} count={fields.length} move={move} />
                      <Button
                        type="text"
                        size="small"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label="删除图表"
                        onClick={() => remove(f.name)}
                        data-testid="chart-remove"
                      />
                    </Space>
                  }
                >
                  <Row gutter={16}>
                    <Col xs={24} lg={14}>
                      <Row gutter={12}>
                        <Col span={14}>
                          <Form.Item
                            name={[f.name, 'title']}
                            label="标题"
                            rules={[
                              { required: true, whitespace: true, message: '请输入图表标题' },
                              { max: 30, message: '最多 30 个字符' },
                            ]}
                          >
                            <Input placeholder="如 各地区项目数" maxLength={30} data-testid="chart-title" />
                          </Form.Item>
                        </Col>
                        <Col span={10}>
                          <Form.Item name={[f.name, 'type']} label="类型" rules={[{ required: true }]}>
                            <Select
                              options={CHART_TYPES.map((t) => ({ value: t.value, label: t.label }))}
                              data-testid="chart-type"
                            />
                          </Form.Item>
                        </Col>
                        <Col span={24}>
                          <Form.Item
                            name={[f.name, 'dimension']}
                            label="维度字段"
                            rules={[
                              { required: true, message: '请选择维度字段' },
                              { pattern: CODE_PATTERN, message: '请选择维度字段' },
                            ]}
                          >
                            {fieldInput('chart-dimension')}
                          </Form.Item>
                        </Col>
                        <Col span={10}>
                          <Form.Item name={[f.name, 'measure']} label="度量" rules={[{ required: true }]}>
                            <Select
                              options={CHART_MEASURES.map((m) => ({ value: m, label: MEASURE_LABELS[m] }))}
                              onChange={(m) => {
                                if (m === 'count') form.setFieldValue(['charts', f.name, 'measureField'], null);
                              }}
                              data-testid="chart-measure"
                            />
                          </Form.Item>
                        </Col>
                        <Col span={14}>
                          <Form.Item
                            name={[f.name, 'measureField']}
                            label="度量字段"
                            dependencies={[['charts', f.name, 'measure']]}
                            rules={[
                              {
                                validator: (_r, value: string | null) => {
                                  const m = form.getFieldValue(['charts', f.name, 'measure']);
                                  if (m === 'count') return Promise.resolve();
                                  if (!value?.trim()) return Promise.reject(new Error(MEASURE_FIELD_REQUIRED));
                                  if (!CODE_PATTERN.test(value.trim()))
                                    return Promise.reject(new Error('字段编码须以字母开头，由字母、数字、下划线组成'));
                                  return Promise.resolve();
                                },
                              },
                            ]}
                          >
                            {fieldInput('chart-measure-field', isCount)}
                          </Form.Item>
                        </Col>
                      </Row>
                    </Col>
                    <Col xs={24} lg={10}>
                      <ChartPreview gnCoding={gnCoding} chart={row} />
                    </Col>
                  </Row>
                </Card>
              );
            })}
            <Space>
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                disabled={fields.length >= MAX_CHARTS}
                onClick={() => add(blankChart())}
                data-testid="chart-add"
              >
                新增图表
              </Button>
              <Typography.Text type="secondary">
                共 {fields.length} 个，最多 {MAX_CHARTS} 个
              </Typography.Text>
            </Space>
          </>
        )}
      </Form.List>
      <div style={{ marginTop: 16, textAlign: 'right' }}>
        <Space>
          <Button onClick={() => charts.data && load(charts.data)} disabled={saving}>
            撤销修改
          </Button>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="save-charts">
            保存
          </Button>
        </Space>
      </div>
    </Form>
  );
}

/** 图表设置 `/system/echartsSetting?gnCoding=X`: the charts of one node (type, dimension, measure). */
export default function EchartsSettingPage() {
  const target = useNodeTarget();
  return (
    <ConfigLayout title="图表设置">
      <Card title="图表设置" data-testid="echarts-setting">
        <NodeTargetBar target={target} current="/system/echartsSetting" />
        {target.gnCoding ? (
          <ChartsEditor key={target.gnCoding} gnCoding={target.gnCoding} />
        ) : (
          <Empty description="请选择系统与节点" data-testid="no-node" />
        )}
      </Card>
    </ConfigLayout>
  );
}
