import type { BidSummary } from '@ks/contracts';
import type { ButtonProps } from 'antd';
import { Form, Input, InputNumber, Modal, Typography } from 'antd';
import type { Rule } from 'antd/es/form';

/**
 * The 开标一览表 a bidder seals with the bid file (issue 17): 投标报价, 工期, 质量标准, 项目经理. The rules are those of
 * bidSummarySchema (@ks/contracts bids.ts), written here without zod so the schemas stay out of the browser bundle;
 * summary.test.ts checks that both agree.
 */
export type SummaryField = keyof BidSummary;

const MAX_PRICE = 999_999_999_999;
const yuan2 = (v: number) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** What is wrong with one field's value, in the schema's words, or null. */
export function summaryFieldError(field: SummaryField, value: unknown): string | null {
  switch (field) {
    case 'price':
      if (!isNumber(value)) return '请输入投标报价';
      if (value <= 0) return '投标报价应大于 0';
      if (value > MAX_PRICE) return '投标报价超出范围';
      return yuan2(value) ? null : '投标报价最多保留两位小数';
    case 'durationDays':
      if (!isNumber(value)) return '请输入工期';
      if (!Number.isInteger(value)) return '工期应为整数天';
      if (value < 1) return '工期至少 1 天';
      return value > 3650 ? '工期不超过 3650 天' : null;
    case 'quality':
    case 'manager': {
      const what = field === 'quality' ? '质量标准' : '项目经理';
      const max = field === 'quality' ? 50 : 20;
      if (typeof value !== 'string' || value.trim().length === 0) return `请输入${what}`;
      return value.trim().length > max ? `${what}不超过 ${max} 字` : null;
    }
  }
}

const rule = (field: SummaryField): Rule[] => [
  {
    required: true,
    validator: (_, v) => {
      const error = summaryFieldError(field, v);
      return error ? Promise.reject(new Error(error)) : Promise.resolve();
    },
  },
];

/** The form's values as the 开标一览表 that is sealed (texts trimmed). */
export const toBidSummary = (v: BidSummary): BidSummary => ({
  price: v.price,
  durationDays: v.durationDays,
  quality: v.quality.trim(),
  manager: v.manager.trim(),
});

/**
 * 填写开标一览表: asked once the bid file is chosen, before it is encrypted and uploaded. The values are sealed with the
 * file key in this browser; nobody reads them before the bidder decrypts at opening.
 */
export function SummaryDialog({
  fileName,
  open,
  onCancel,
  onOk,
}: {
  fileName: string;
  open: boolean;
  onCancel: () => void;
  onOk: (summary: BidSummary) => void;
}) {
  const [form] = Form.useForm<BidSummary>();
  return (
    <Modal
      open={open}
      title="填写开标一览表"
      okText="加密上传"
      cancelText="取消"
      onCancel={onCancel}
      onOk={() =>
        form.validateFields().then(
          (v) => onOk(toBidSummary(v)),
          () => undefined,
        )
      }
      okButtonProps={{ 'data-testid': 'bid-summary-ok' } as ButtonProps}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        投标文件：{fileName}
        。开标一览表与投标文件用同一文件密钥在您的浏览器中加密封存，开标时您解密之前任何人都无法查看； 唱标时按此唱出。
      </Typography.Paragraph>
      <Form
        form={form}
        preserve={false}
        layout="horizontal"
        labelCol={{ span: 7 }}
        wrapperCol={{ span: 16 }}
        data-testid="bid-summary-form"
      >
        <Form.Item name="price" label="投标报价（元）" rules={rule('price')}>
          <InputNumber<number>
            style={{ width: '100%' }}
            min={0}
            step={0.01}
            placeholder="最多两位小数"
            data-testid="bid-summary-price"
          />
        </Form.Item>
        <Form.Item name="durationDays" label="工期（日历天）" rules={rule('durationDays')}>
          <InputNumber<number>
            style={{ width: '100%' }}
            min={1}
            max={3650}
            step={1}
            data-testid="bid-summary-duration"
          />
        </Form.Item>
        <Form.Item name="quality" label="质量标准" rules={rule('quality')}>
          <Input maxLength={50} placeholder="如：合格" data-testid="bid-summary-quality" />
        </Form.Item>
        <Form.Item name="manager" label="项目经理" rules={rule('manager')}>
          <Input maxLength={20} placeholder="项目经理姓名" data-testid="bid-summary-manager" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
