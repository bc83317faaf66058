import { PlusOutlined } from '@ant-design/icons';
import {
  BENCHMARK_RULE_LABELS,
  BENCHMARK_RULES,
  type BenchmarkRule,
  criteriaProblems,
  defaultCriteria,
  EVAL_METHOD_LABELS,
  EVAL_METHODS,
  type EvalCriteria,
  type EvalMethod,
  type EvalRoom,
  round2,
} from '@ks/contracts';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Col,
  Form,
  type FormInstance,
  type FormRule,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
} from 'antd';
import { evalMethod, setRoom } from '../../../api/evaluation';
import { FormDialog, RowOps, RowsTable } from '../../../components/admin';

/**
 * The evaluation method's edit form (the host, before any score): qualification items, technical and business items
 * with their highest scores, the price formula and the deviation threshold. Field rules mirror the contract's schema,
 * and the problems criteriaProblems finds (duplicate codes, the 100-point total, the lowest-price method's lists) are
 * listed above the form while they last: 保存 waits until there are none.
 */

interface ItemRow {
  id: string;
  name: string;
  max?: number;
}

interface MethodValues {
  method: EvalMethod;
  qualification: ItemRow[];
  technical: ItemRow[];
  business: ItemRow[];
  price: { max: number; benchmark: BenchmarkRule; k: number; abovePerPct: number; belowPerPct: number };
  /** the deviation threshold in percent (the criteria hold a share) */
  deviationPct: number;
}

const toValues = (c: EvalCriteria): MethodValues => ({
  method: c.method,
  qualification: c.qualification.map((q) => ({ ...q })),
  technical: c.technical.map((t) => ({ ...t })),
  business: c.business.map((b) => ({ ...b })),
  price: { ...c.price },
  deviationPct: round2(c.deviation * 100),
});

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** The criteria the form holds (the lowest-price method keeps no technical or business items). */
export function toCriteria(v: Partial<MethodValues>): EvalCriteria {
  const method = v.method ?? 'comprehensive';
  const scored = (rows: ItemRow[] | undefined) =>
    method === 'lowest' ? [] : (rows ?? []).map((r) => ({ id: text(r?.id), name: text(r?.name), max: num(r?.max) }));
  return {
    method,
    qualification: (v.qualification ?? []).map((r) => ({ id: text(r?.id), name: text(r?.name) })),
    technical: scored(v.technical),
    business: scored(v.business),
    price: {
      max: num(v.price?.max),
      benchmark: v.price?.benchmark ?? 'mean',
      k: num(v.price?.k),
      abovePerPct: num(v.price?.abovePerPct),
      belowPerPct: num(v.price?.belowPerPct),
    },
    deviation: num(v.deviationPct) / 100,
  };
}

const ID_RULES: FormRule[] = [
  { required: true, whitespace: true, message: '请输入编号' },
  { pattern: /^[a-z][a-z0-9]{0,9}$/, message: '评审因素编号应为小写字母开头的 1–10 位字母数字' },
];
const NAME_RULES: FormRule[] = [
  { required: true, whitespace: true, message: '请输入评审因素名称' },
  {
    validator: (_, v: string | undefined) => {
      const n = (v ?? '').trim().length;
      if (n === 0) return Promise.resolve();
      if (n < 2) return Promise.reject(new Error('评审因素名称至少 2 个字'));
      if (n > 60) return Promise.reject(new Error('名称不超过 60 字'));
      return Promise.resolve();
    },
  },
];
const twoDecimals = (label: string): FormRule => ({
  validator: (_, v: number | null | undefined) =>
    typeof v !== 'number' || Math.round(v * 100) === v * 100
      ? Promise.resolve()
      : Promise.reject(new Error(`${label}最多两位小数`)),
});
const pointsRules = (label: string): FormRule[] => [
  { required: true, message: `请输入${label}` },
  { type: 'number', min: 0, message: `${label}不能为负` },
  { type: 'number', max: 100, message: `${label}不超过 100` },
  twoDecimals(label),
];

/** A code not yet used by any item: the list's letter and the next free number. */
function nextId(form: FormInstance<MethodValues>, letter: string): string {
  const used = new Set(
    (['qualification', 'technical', 'business'] as const).flatMap((k) =>
      ((form.getFieldValue(k) ?? []) as ItemRow[]).map((r) => r?.id),
    ),
  );
  for (let i = 1; i < 1000; i++) if (!used.has(`${letter}${i}`)) return `${letter}${i}`;
  return letter;
}

function ItemsList({
  form,
  name,
  letter,
  title,
  scored,
}: {
  form: FormInstance<MethodValues>;
  name: 'qualification' | 'technical' | 'business';
  letter: string;
  title: string;
  scored: boolean;
}) {
  return (
    <Form.List name={name}>
      {(fields, { add, remove, move }) => (
        <div className="eval-method-list">
          <div className="eval-method-list-head">
            <strong>{title}</strong>
            <Button
              size="small"
              icon={<PlusOutlined />}
              onClick={() =>
                add(scored ? { id: nextId(form, letter), name: '', max: 0 } : { id: nextId(form, letter), name: '' })
              }
              data-testid={`eval-method-add-${name}`}
            >
              添加
            </Button>
          </div>
          <RowsTable
            fields={fields}
            scrollX={scored ? 640 : 540}
            testId={`eval-method-${name}`}
            columns={[
              {
                title: '编号',
                key: 'id',
                width: 110,
                render: (_, f) => (
                  <Form.Item name={[f.name, 'id']} rules={ID_RULES} style={{ margin: 0 }}>
                    <Input size="small" maxLength={10} data-testid={`eval-method-${name}-${f.name}-id`} />
                  </Form.Item>
                ),
              },
              {
                title: '评审因素',
                key: 'name',
                render: (_, f) => (
                  <Form.Item name={[f.name, 'name']} rules={NAME_RULES} style={{ margin: 0 }}>
                    <Input size="small" maxLength={60} data-testid={`eval-method-${name}-${f.name}-name`} />
                  </Form.Item>
                ),
              },
              ...(scored
                ? [
                    {
                      title: '分值',
                      key: 'max',
                      width: 110,
                      render: (_: unknown, f: { name: number }) => (
                        <Form.Item name={[f.name, 'max']} rules={pointsRules('分值')} style={{ margin: 0 }}>
                          <InputNumber<number>
                            size="small"
                            min={0}
                            max={100}
                            step={0.5}
                            style={{ width: '100%' }}
                            data-testid={`eval-method-${name}-${f.name}-max`}
                          />
                        </Form.Item>
                      ),
                    },
                  ]
                : []),
              {
                title: '操作',
                key: 'ops',
                width: 110,
                render: (_, f) => (
                  <RowOps
                    index={f.name}
                    count={fields.length}
                    move={move}
                    onRemove={() => remove(f.name)}
                    testId={`eval-method-${name}-${f.name}`}
                  />
                ),
              },
            ]}
          />
        </div>
      )}
    </Form.List>
  );
}

export function MethodForm({ room, open, onClose }: { room: EvalRoom; open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const [form] = Form.useForm<MethodValues>();
  const watched = Form.useWatch([], form) as Partial<MethodValues> | undefined;
  const method = watched?.method ?? room.criteria?.method ?? 'comprehensive';
  const criteria = watched ? toCriteria(watched) : null;
  const problems = criteria ? criteriaProblems(criteria) : [];
  const comprehensive = method === 'comprehensive';
  const sum = criteria
    ? round2(
        criteria.technical.reduce((a, b) => a + b.max, 0) +
          criteria.business.reduce((a, b) => a + b.max, 0) +
          criteria.price.max,
      )
    : 0;
  return (
    <FormDialog<MethodValues, EvalRoom>
      open={open}
      form={form}
      title="设置评标办法"
      variant="drawer"
      width={900}
      values={() => toValues(room.criteria ?? defaultCriteria('comprehensive'))}
      fields={(n) =>
        ['method', 'qualification', 'technical', 'business', 'price', 'deviationPct'].includes(String(n[0]))
      }
      mapName={(n) => (n[0] === 'criteria' ? n.slice(1) : n)}
      // the whole store: fields hidden for the lowest-price method (the price formula) keep their values
      submit={(v) =>
        evalMethod({ sectionId: room.section.id, criteria: toCriteria({ ...form.getFieldsValue(true), ...v }) })
      }
      onClose={onClose}
      onSaved={(r) => {
        setRoom(qc, r);
        onClose();
      }}
      successText="评标办法已保存"
      okDisabled={problems.length > 0}
      testId="eval-method-save"
      dialogTestId="eval-method-drawer"
      intro={
        problems.length > 0 ? (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            title="评标办法尚不能保存："
            description={problems.map((p) => <div key={p}>{p}</div>)}
            data-testid="eval-method-problems"
          />
        ) : null
      }
    >
      <Form.Item name="method" label="评标办法" rules={[{ required: true, message: '请选择评标办法' }]}>
        <Radio.Group
          options={EVAL_METHODS.map((m) => ({ value: m, label: EVAL_METHOD_LABELS[m] }))}
          data-testid="eval-method-method"
        />
      </Form.Item>
      <ItemsList form={form} name="qualification" letter="q" title="资格评审因素（合格 / 不合格）" scored={false} />
      {comprehensive ? (
        <>
          <ItemsList form={form} name="technical" letter="t" title="技术评审因素" scored />
          <ItemsList form={form} name="business" letter="b" title="商务评审因素" scored />
          <div className="eval-method-list-head">
            <strong>价格分</strong>
          </div>
          <Row gutter={12}>
            <Col span={8}>
              <Form.Item name={['price', 'max']} label="价格分满分" rules={pointsRules('价格分满分')}>
                <InputNumber<number>
                  min={0}
                  max={100}
                  step={1}
                  style={{ width: '100%' }}
                  data-testid="eval-method-price-max"
                />
              </Form.Item>
            </Col>
            <Col span={16}>
              <Form.Item
                name={['price', 'benchmark']}
                label="评标基准价"
                rules={[{ required: true, message: '请选择基准价计算方法' }]}
              >
                <Select
                  options={BENCHMARK_RULES.map((b) => ({ value: b, label: BENCHMARK_RULE_LABELS[b] }))}
                  data-testid="eval-method-benchmark"
                />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item
                name={['price', 'k']}
                label="评审系数 K"
                extra={room.drawnK !== null ? '开标大厅随机抽取，不能修改' : undefined}
                rules={[
                  { required: true, message: '请输入下浮系数 K' },
                  { type: 'number', min: 0.8, message: 'K 不小于 0.80' },
                  { type: 'number', max: 1, message: 'K 不大于 1' },
                ]}
              >
                <InputNumber<number>
                  min={0.8}
                  max={1}
                  step={0.01}
                  precision={2}
                  disabled={room.drawnK !== null}
                  style={{ width: '100%' }}
                  data-testid="eval-method-k"
                />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item
                name={['price', 'abovePerPct']}
                label="每高于基准价 1% 扣分"
                rules={[
                  { required: true, message: '请输入扣分' },
                  { type: 'number', min: 0, max: 10, message: '每高 1% 扣分不超过 10 分' },
                ]}
              >
                <InputNumber<number> min={0} max={10} step={0.5} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item
                name={['price', 'belowPerPct']}
                label="每低于基准价 1% 扣分"
                rules={[
                  { required: true, message: '请输入扣分' },
                  { type: 'number', min: 0, max: 10, message: '每低 1% 扣分不超过 10 分' },
                ]}
              >
                <InputNumber<number> min={0} max={10} step={0.5} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <div className="eval-method-sum" data-testid="eval-method-sum">
            满分合计：技术 {round2(criteria?.technical.reduce((a, b) => a + b.max, 0) ?? 0)} + 商务{' '}
            {round2(criteria?.business.reduce((a, b) => a + b.max, 0) ?? 0)} + 价格 {criteria?.price.max ?? 0} ={' '}
            <strong>{sum}</strong> 分
          </div>
        </>
      ) : (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title="经评审的最低投标价法：通过资格评审的投标人按投标报价由低到高排序，不设技术、商务打分因素。"
        />
      )}
      <Form.Item
        name="deviationPct"
        label="偏离阈值（% 因素满分）"
        extra="评分与评标委员会中位数的差超过该因素满分的此比例时，提交须写书面理由"
        rules={[
          { required: true, message: '请输入偏离阈值' },
          { type: 'number', min: 5, message: '偏离阈值不小于 5%' },
          { type: 'number', max: 100, message: '偏离阈值不大于 100%' },
        ]}
      >
        <InputNumber<number> min={5} max={100} step={5} style={{ width: 160 }} data-testid="eval-method-deviation" />
      </Form.Item>
    </FormDialog>
  );
}
