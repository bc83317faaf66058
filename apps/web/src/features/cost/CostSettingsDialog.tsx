import type { CostSettings } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, type ButtonProps, Form, InputNumber, Modal, Spin } from 'antd';
import { useState } from 'react';
import { COST_KEY, costSettingsQuery, saveCostSettings } from '../../api/cost';

/** The form shows the two rates in percent; the API keeps them as shares. */
type FormValues = CostSettings;
const RATES = ['safetyRateMin', 'feeRateMin'] as const;
const toForm = (s: CostSettings): FormValues => ({
  ...s,
  safetyRateMin: +(s.safetyRateMin * 100).toFixed(4),
  feeRateMin: +(s.feeRateMin * 100).toFixed(4),
});
const fromForm = (v: FormValues): CostSettings => ({
  ...v,
  safetyRateMin: +(v.safetyRateMin / 100).toFixed(6),
  feeRateMin: +(v.feeRateMin / 100).toFixed(6),
});

const FIELDS: { name: keyof CostSettings; label: string; max: number; min: number; help: string }[] = [
  {
    name: 'safetyRateMin',
    label: '安全文明施工费最低费率',
    min: 0,
    max: 20,
    help: '占分部分项工程费的比例，低于此值的单位工程标记',
  },
  { name: 'feeRateMin', label: '规费最低费率', min: 0, max: 20, help: '占分部分项、措施、其他项目费合计的比例' },
  { name: 'lowPricePct', label: '综合单价偏低比例', min: 1, max: 90, help: '低于各家中位数超过此比例为异常偏低' },
  { name: 'highPricePct', label: '综合单价偏高比例', min: 1, max: 500, help: '高于各家中位数超过此比例为不平衡报价' },
  { name: 'similarPct', label: '报价雷同比例', min: 1, max: 100, help: '两家相同综合单价的清单达到此比例即标记' },
  { name: 'lowTotalPct', label: '投标总价偏低比例', min: 1, max: 90, help: '低于各家投标总价中位数超过此比例' },
];

/** 检测参数: the thresholds of the next detections (administrators change them; developers read them). */
export function CostSettingsDialog({
  open,
  canEdit,
  onClose,
}: {
  open: boolean;
  canEdit: boolean;
  onClose: () => void;
}) {
  const q = useQuery({ ...costSettingsQuery(), enabled: open });
  const [form] = Form.useForm<FormValues>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const qc = useQueryClient();
  const { message } = App.useApp();
  return (
    <Modal
      open={open}
      title="检测参数"
      onCancel={onClose}
      okText="保存"
      cancelText={canEdit ? '取消' : '关闭'}
      okButtonProps={{ loading: saving, 'data-testid': 'cost-settings-save' } as ButtonProps}
      footer={canEdit ? undefined : null}
      destroyOnHidden
      onOk={() =>
        form
          .validateFields()
          .then((v) => {
            setSaving(true);
            setError(null);
            return saveCostSettings(fromForm(v))
              .then(() => {
                void message.success('保存成功');
                void qc.invalidateQueries({ queryKey: [...COST_KEY, 'settings'] });
                onClose();
              })
              .catch((e: Error) => setError(e.message))
              .finally(() => setSaving(false));
          })
          .catch(() => undefined)
      }
    >
      {!q.data ? (
        <Spin />
      ) : (
        <Form<FormValues>
          form={form}
          layout="horizontal"
          labelCol={{ span: 9 }}
          initialValues={toForm(q.data.settings)}
          disabled={!canEdit}
          data-testid="cost-settings-form"
        >
          {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} /> : null}
          {FIELDS.map((f) => (
            <Form.Item
              key={f.name}
              name={f.name}
              label={f.label}
              extra={`${f.help}；平台默认 ${(RATES as readonly string[]).includes(f.name) ? +(q.data.defaults[f.name] * 100).toFixed(4) : q.data.defaults[f.name]}%`}
              rules={[{ required: true, message: `请填写${f.label}` }]}
            >
              <InputNumber
                min={f.min}
                max={f.max}
                step={(RATES as readonly string[]).includes(f.name) ? 0.5 : 1}
                addonAfter="%"
                style={{ width: 160 }}
                data-testid={`cost-setting-${f.name}`}
              />
            </Form.Item>
          ))}
        </Form>
      )}
    </Modal>
  );
}
