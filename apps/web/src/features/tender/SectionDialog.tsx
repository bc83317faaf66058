import type { TenderSection, TenderSectionInput, TenderSettings } from '@ks/contracts';
import { Alert, Col, DatePicker, Form, Input, InputNumber, Row, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { saveTenderSection } from '../../api/tender';
import { FormDialog } from '../../components/admin';

interface SectionForm {
  code: string;
  name: string;
  estimate: number;
  deposit: number;
  sale: [Dayjs, Dayjs];
  bidDeadline: Dayjs;
  perfCount: number;
  /** 万元 */
  perfMinWan: number;
  perfYears: number;
}

/** Where the server's field errors go on this form (the sale period is one range picker). */
const FIELD_OF: Record<string, string> = { docSaleStart: 'sale', docSaleEnd: 'sale', perfMinAmount: 'perfMinWan' };
const FIELDS = ['code', 'name', 'estimate', 'deposit', 'sale', 'bidDeadline', 'perfCount', 'perfMinWan', 'perfYears'];
/** 万元 ↔ 元, without floating-point dust (two decimals of yuan) */
const wanToYuan = (wan: number) => Math.round(wan * 1_000_000) / 100;
const yuan = (v: number) => v.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * 新增标段 / 编辑标段: code, name, estimate and deposit, the sale period of the tender documents and the bid deadline
 * (the opening time). The timeline rules in force are stated above the form; the server holds the section to them and
 * a refusal lands on the field it concerns, naming the rule.
 */
export function SectionDialog({
  open,
  projectId,
  section,
  settings,
  onClose,
  onSaved,
}: {
  open: boolean;
  projectId: string;
  /** the section being changed; null: a new one */
  section: TenderSection | null;
  settings: TenderSettings | undefined;
  onClose: () => void;
  onSaved: (s: TenderSection) => void;
}) {
  const [form] = Form.useForm<SectionForm>();
  const estimate = Form.useWatch('estimate', form);
  const maxDeposit =
    settings && typeof estimate === 'number' ? Math.floor(estimate * settings.depositMaxPercent) / 100 : null;
  return (
    <FormDialog<SectionForm, TenderSection>
      open={open}
      subject={section?.id ?? 'new'}
      form={form}
      title={section ? `编辑标段 ${section.code}` : '新增标段'}
      testId="section-save"
      dialogTestId="section-dialog"
      width={640}
      values={() =>
        section
          ? {
              code: section.code,
              name: section.name,
              estimate: section.estimate,
              deposit: section.deposit,
              sale: [dayjs(section.docSaleStart), dayjs(section.docSaleEnd)],
              bidDeadline: dayjs(section.bidDeadline),
              perfCount: section.perfCount,
              perfMinWan: section.perfMinAmount / 10_000,
              perfYears: section.perfYears,
            }
          : { perfCount: 0, perfMinWan: 0, perfYears: 3 }
      }
      fields={FIELDS}
      mapName={(name) => [FIELD_OF[String(name[0])] ?? name[0]!, ...name.slice(1)]}
      submit={(v) => {
        const body: TenderSectionInput = {
          projectId,
          code: v.code.trim(),
          name: v.name.trim(),
          estimate: v.estimate,
          deposit: v.deposit,
          docSaleStart: v.sale[0].format('YYYY-MM-DD'),
          docSaleEnd: v.sale[1].format('YYYY-MM-DD'),
          bidDeadline: v.bidDeadline.second(0).millisecond(0).toISOString(),
          perfCount: v.perfCount ?? 0,
          perfMinAmount: v.perfCount ? wanToYuan(v.perfMinWan ?? 0) : 0,
          perfYears: v.perfYears ?? 3,
          ...(section ? { id: section.id, version: section.version } : {}),
        };
        return saveTenderSection(body);
      }}
      successText="标段已保存"
      onClose={onClose}
      onSaved={onSaved}
      intro={
        settings ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="section-rules"
            title={`交易时限：招标文件发售期不少于 ${settings.docSaleDays} 日；自开始发出招标文件至投标截止不少于 ${settings.issueToDeadlineDays} 日；投标保证金不超过标段估算价的 ${settings.depositMaxPercent}%。开标时间即投标截止时间。`}
          />
        ) : null
      }
    >
      <Form.Item name="code" label="标段编号" rules={[{ required: true, message: '请输入标段编号' }]}>
        <Input maxLength={40} placeholder="如 BD-01" data-testid="section-code" />
      </Form.Item>
      <Form.Item name="name" label="标段名称" rules={[{ required: true, whitespace: true, message: '请输入标段名称' }]}>
        <Input maxLength={100} placeholder="如 施工标段" data-testid="section-name" />
      </Form.Item>
      <Form.Item name="estimate" label="标段估算价（元）" rules={[{ required: true, message: '请输入标段估算价' }]}>
        <InputNumber min={0} precision={2} style={{ width: '100%' }} data-testid="section-estimate" />
      </Form.Item>
      <Form.Item
        name="deposit"
        label="投标保证金（元）"
        rules={[{ required: true, message: '请输入投标保证金' }]}
        extra={maxDeposit !== null ? `上限 ${yuan(maxDeposit)} 元` : undefined}
      >
        <InputNumber min={0} precision={2} style={{ width: '100%' }} data-testid="section-deposit" />
      </Form.Item>
      <Form.Item name="sale" label="招标文件发售期" rules={[{ required: true, message: '请选择招标文件发售期' }]}>
        <DatePicker.RangePicker style={{ width: '100%' }} data-testid="section-sale" />
      </Form.Item>
      <Form.Item
        name="bidDeadline"
        label="投标截止（开标）时间"
        rules={[{ required: true, message: '请选择投标截止（开标）时间' }]}
      >
        <DatePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          style={{ width: '100%' }}
          data-testid="section-deadline"
        />
      </Form.Item>
      <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
        业绩要求：报名时平台按企业已审核的业绩（企业业绩）核验——近 N
        年内竣工、单项合同金额不低于所填金额的业绩数量。数量填 0 表示不设业绩要求。
      </Typography.Text>
      <Row gutter={12}>
        <Col span={7}>
          <Form.Item
            name="perfYears"
            label="业绩年限（近 N 年）"
            rules={[{ required: true, message: '请输入业绩年限' }]}
          >
            <InputNumber
              min={1}
              max={10}
              precision={0}
              suffix="年"
              style={{ width: '100%' }}
              data-testid="section-perf-years"
            />
          </Form.Item>
        </Col>
        <Col span={10}>
          <Form.Item
            name="perfMinWan"
            label="单项合同金额不低于"
            rules={[{ required: true, message: '请输入单项合同金额' }]}
          >
            <InputNumber
              min={0}
              precision={2}
              suffix="万元"
              style={{ width: '100%' }}
              data-testid="section-perf-amount"
            />
          </Form.Item>
        </Col>
        <Col span={7}>
          <Form.Item name="perfCount" label="业绩数量不少于" rules={[{ required: true, message: '请输入业绩数量' }]}>
            <InputNumber
              min={0}
              max={20}
              precision={0}
              suffix="项"
              style={{ width: '100%' }}
              data-testid="section-perf-count"
            />
          </Form.Item>
        </Col>
      </Row>
    </FormDialog>
  );
}
