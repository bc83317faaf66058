import {
  type ApiBody,
  appNow,
  COMMITTEE_MIN,
  committeeProblems,
  committeeTotals,
  DATETIME_FORMAT,
  dateTimeIn,
  EXPERT_CATEGORIES,
  type ExpertCategory,
  type ExtractionDetail,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Col, DatePicker, Form, Input, InputNumber, Row, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { createExtraction, extractionOptionsQuery } from '../../api/experts';
import { FormDialog } from '../../components/admin';

interface Values {
  projectName: string;
  sectionName: string;
  projectRef?: string;
  openingAt: Dayjs;
  evaluationStartAt: Dayjs;
  location?: string;
  tendereeReps: number;
  lines: { specialty?: string; count?: number }[];
  regions: string[];
  avoidEmployers: string[];
  avoidExpertIds: string[];
  recentDays: number;
}

/** Tomorrow 09:00 and 09:30 in the platform's calendar. */
function defaultTimes() {
  const tomorrow = dayjs(appNow(), DATETIME_FORMAT).add(1, 'day').startOf('day');
  return { openingAt: tomorrow.hour(9), evaluationStartAt: tomorrow.hour(9).minute(30) };
}

/** The committee as the form stands: totals and the rules it breaks (the server checks the same rules). */
function CommitteeSummary({ reps, lines }: { reps: number; lines: Values['lines'] }) {
  const input = {
    tendereeReps: Number.isInteger(reps) ? reps : 0,
    lines: lines.filter((l) => l?.specialty).map((l) => ({ specialty: l.specialty!, count: l.count ?? 0 })),
  };
  const t = committeeTotals(input);
  const problems = input.lines.length ? committeeProblems(input) : [];
  return (
    <Alert
      type={problems.length ? 'warning' : 'info'}
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="committee-summary"
      title={`评标委员会 ${t.total} 人：招标人代表 ${t.reps} 人，技术专家 ${t.technical} 人，经济专家 ${t.economic} 人`}
      description={
        problems.length ? (
          <ul style={{ margin: 0, paddingLeft: 18 }}>
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        ) : (
          `成员须为 ${COMMITTEE_MIN} 人以上单数，技术、经济等方面的专家不少于成员总数的三分之二`
        )
      }
    />
  );
}

/** 新建抽取: the project, the times and the extraction conditions (a draft; the seed is committed afterwards). */
/** A five-in-one section the extraction is for (its 专家抽取 tab): names, number and opening time come from it. */
export interface ExtractionSectionPreset {
  sectionId: string;
  projectName: string;
  sectionName: string;
  projectRef: string;
  /** the bid deadline, which is the opening time (ISO) */
  openingAt: string;
}

export function CreateExtractionDialog({
  open,
  onClose,
  onSaved,
  preset,
}: {
  open: boolean;
  onClose: () => void;
  onSaved: (d: ExtractionDetail) => void;
  preset?: ExtractionSectionPreset;
}) {
  const [form] = Form.useForm<Values>();
  const options = useQuery({ ...extractionOptionsQuery, enabled: open });
  const reps = Form.useWatch('tendereeReps', form) ?? 0;
  const lines = Form.useWatch('lines', form) ?? [];
  const specialties = options.data?.specialties ?? [];
  return (
    <FormDialog<Values, ExtractionDetail>
      open={open}
      form={form}
      title="新建抽取"
      width={860}
      testId="extraction-save"
      dialogTestId="extraction-dialog"
      okText="保存草稿"
      successText="抽取已创建"
      intro={
        preset ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            data-testid="extraction-section-avoid"
            message="本标段的招标人、招标代理及已报名单位的专家由系统自动回避（开标前不公开报名单位，此处不列出）"
          />
        ) : undefined
      }
      values={() => ({
        ...defaultTimes(),
        ...(preset
          ? {
              projectName: preset.projectName,
              sectionName: preset.sectionName,
              projectRef: preset.projectRef,
              // the platform's wall clock (times are entered and stored in its zone, whatever the browser's)
              openingAt: dayjs(dateTimeIn(new Date(preset.openingAt)), DATETIME_FORMAT),
              evaluationStartAt: dayjs(dateTimeIn(new Date(preset.openingAt)), DATETIME_FORMAT).add(30, 'minute'),
            }
          : {}),
        tendereeReps: 1,
        lines: [
          { specialty: '房屋建筑工程', count: 4 },
          { specialty: '工程造价', count: 2 },
        ],
        regions: [],
        avoidEmployers: [],
        avoidExpertIds: [],
        recentDays: options.data?.recentDays ?? 30,
      })}
      fields={['projectName', 'sectionName', 'projectRef', 'openingAt', 'evaluationStartAt', 'location']}
      submit={(v) =>
        createExtraction({
          projectName: v.projectName,
          sectionName: v.sectionName,
          projectRef: v.projectRef ?? '',
          ...(preset ? { sectionId: preset.sectionId } : {}),
          openingAt: v.openingAt.format(DATETIME_FORMAT),
          evaluationStartAt: v.evaluationStartAt.format(DATETIME_FORMAT),
          location: v.location ?? '',
          conditions: {
            tendereeReps: v.tendereeReps,
            lines: v.lines.map((l) => ({ specialty: l.specialty ?? '', count: l.count ?? 0 })),
            regions: (v.regions ?? []) as ApiBody<'extractionCreate'>['conditions']['regions'],
            avoidEmployers: v.avoidEmployers ?? [],
            avoidExpertIds: v.avoidExpertIds ?? [],
            recentDays: v.recentDays,
          },
        })
      }
      onClose={onClose}
      onSaved={onSaved}
    >
      <Row gutter={12}>
        <Col span={12}>
          <Form.Item
            name="projectName"
            label="项目名称"
            rules={[{ required: true, whitespace: true, message: '请填写项目名称' }]}
          >
            <Input maxLength={200} data-testid="extraction-project" />
          </Form.Item>
        </Col>
        <Col span={7}>
          <Form.Item
            name="sectionName"
            label="标段名称"
            rules={[{ required: true, whitespace: true, message: '请填写标段名称' }]}
          >
            <Input maxLength={200} data-testid="extraction-section" />
          </Form.Item>
        </Col>
        <Col span={5}>
          <Form.Item name="projectRef" label="项目编号">
            <Input maxLength={64} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="openingAt" label="开标时间" rules={[{ required: true, message: '请选择开标时间' }]}>
            <DatePicker showTime={{ format: 'HH:mm' }} format={DATETIME_FORMAT} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="evaluationStartAt"
            label="评标开始时间"
            tooltip="名单在评标开始前仅抽取管理员可见"
            dependencies={['openingAt']}
            rules={[
              { required: true, message: '请选择评标开始时间' },
              ({ getFieldValue }) => ({
                validator: (_, v: Dayjs | undefined) =>
                  v && getFieldValue('openingAt') && v.isBefore(getFieldValue('openingAt'))
                    ? Promise.reject(new Error('评标开始时间不能早于开标时间'))
                    : Promise.resolve(),
              }),
            ]}
          >
            <DatePicker showTime={{ format: 'HH:mm' }} format={DATETIME_FORMAT} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="location" label="评标地点">
            <Input maxLength={200} placeholder="如：太原市公共资源交易中心 3 号评标室" />
          </Form.Item>
        </Col>
      </Row>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        抽取条件
      </Typography.Title>
      <CommitteeSummary reps={reps} lines={lines} />
      <Row gutter={12}>
        <Col span={6}>
          <Form.Item name="tendereeReps" label="招标人代表人数" rules={[{ required: true, message: '请填写' }]}>
            <InputNumber min={0} max={20} precision={0} style={{ width: '100%' }} data-testid="extraction-reps" />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="recentDays" label="近期抽中回避（天）" tooltip="该天数内被抽中过的专家不再抽取，0 表示不限">
            <InputNumber min={0} max={3650} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="regions" label="抽取地区" tooltip="不选表示全省">
            <Select
              mode="multiple"
              allowClear
              placeholder="全省"
              options={(options.data?.regions ?? []).map((r) => ({ value: r, label: r }))}
              data-testid="extraction-regions"
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.List
        name="lines"
        rules={[
          {
            validator: async (_, v: Values['lines']) => {
              if (!v?.length) throw new Error('请至少添加一个抽取专业');
            },
          },
        ]}
      >
        {(fields, { add, remove }, { errors }) => (
          <div data-testid="extraction-lines">
            {fields.map((f, i) => (
              <Space key={f.key} align="baseline" style={{ display: 'flex' }}>
                <Form.Item
                  name={[f.name, 'specialty']}
                  label={i === 0 ? '评标专业' : undefined}
                  rules={[{ required: true, message: '请选择专业' }]}
                  style={{ width: 360 }}
                >
                  <Select
                    placeholder="评标专业"
                    data-testid={`extraction-line-specialty-${i}`}
                    options={(['technical', 'economic'] as ExpertCategory[]).map((cat) => ({
                      label: `${EXPERT_CATEGORIES[cat]}类`,
                      title: cat,
                      options: specialties
                        .filter((s) => s.category === cat)
                        .map((s) => ({ value: s.value, label: `${s.value}（在库 ${s.available} 人）` })),
                    }))}
                  />
                </Form.Item>
                <Form.Item
                  name={[f.name, 'count']}
                  label={i === 0 ? '抽取人数' : undefined}
                  rules={[{ required: true, message: '请填写人数' }]}
                >
                  <InputNumber min={1} max={50} precision={0} data-testid={`extraction-line-count-${i}`} />
                </Form.Item>
                <Button type="link" danger onClick={() => remove(f.name)} disabled={fields.length === 1}>
                  删除
                </Button>
              </Space>
            ))}
            <Form.ErrorList errors={errors} />
            <Button
              type="dashed"
              onClick={() => add({ count: 1 })}
              style={{ marginBottom: 12 }}
              data-testid="extraction-add-line"
            >
              + 添加专业
            </Button>
          </div>
        )}
      </Form.List>
      <Form.Item
        name="avoidEmployers"
        label="回避单位"
        tooltip="填写招标人及已报名投标人的单位名称，这些单位的专家不予抽取（按回车添加）"
      >
        <Select mode="tags" open={false} placeholder="输入单位名称后按回车" data-testid="extraction-avoid-employers" />
      </Form.Item>
      <Form.Item name="avoidExpertIds" label="回避专家" tooltip="已申报利害关系等需回避的专家">
        <Select
          mode="multiple"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder="按姓名或单位搜索"
          options={(options.data?.experts ?? []).map((e) => ({
            value: e.id,
            label: `${e.name}（${e.specialty}，${e.employer}）`,
          }))}
        />
      </Form.Item>
    </FormDialog>
  );
}
