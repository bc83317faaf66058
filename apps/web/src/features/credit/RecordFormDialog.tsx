import {
  CREDIT_CONDUCT_LABELS,
  CREDIT_MESSAGES,
  type CreditRecordValues,
  creditRecordProblems,
  previewKind,
  scoreText,
  validityEnd,
} from '@ks/contracts';
import { App, Cascader, Col, DatePicker, Form, Input, InputNumber, Row, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useRef } from 'react';
import { deleteUploadedFile } from '../../api/files';
import { FormDialog } from '../../components/admin';
import { AttachmentUploader } from '../../components/upload/AttachmentUploader';
import { type AttachmentFile, uploadedAttachment } from '../../components/upload/types';
import {
  addRecord,
  type CreditRecord,
  type CreditTree,
  type CreditTreeLeaf,
  EVIDENCE_TARGET,
  fileUrl,
  type SubjectRef,
  updateRecord,
} from './api';

/** The declaration form's values as the form holds them. */
export interface RecordFormValues {
  standard?: [string, string];
  title?: string;
  score?: number | null;
  start?: Dayjs | null;
  end?: Dayjs | null;
  issuer?: string;
  remark?: string;
  files?: AttachmentFile[];
}

const DAY = 'YYYY-MM-DD';
const dayOf = (d: Dayjs | null | undefined) => (d ? d.format(DAY) : null);

/** The standard items of the left tree by id. */
export function leavesOf(tree: CreditTree | undefined): Map<string, CreditTreeLeaf & { groupKey: string }> {
  const out = new Map<string, CreditTreeLeaf & { groupKey: string }>();
  for (const g of tree?.children ?? [])
    for (const l of g.children) out.set(l.primaryKey, { ...l, groupKey: g.primaryKey });
  return out;
}

/**
 * The §5 problems of the form (creditRecordProblems of the contracts, the rules the server checks again): an end before
 * the start, a score above the item's highest (the message names it), a negative score, a validity longer than the
 * item's, no evidence.
 */
export function formProblems(v: RecordFormValues, leaf: CreditTreeLeaf | undefined): Record<string, string> {
  const values: CreditRecordValues = {
    score: v.score,
    startTime: dayOf(v.start),
    endTime: dayOf(v.end),
    fileCount: v.files?.length ?? 0,
  };
  return creditRecordProblems(values, leaf ? { highest: leaf.highest, validityMonths: leaf.validityMonths } : null, {
    needsFiles: true,
  });
}

const FIELD_OF: Record<string, keyof RecordFormValues> = {
  standardId: 'standard',
  score: 'score',
  startTime: 'start',
  endTime: 'end',
  fileIds: 'files',
};

export function RecordFormDialog({
  open,
  subject,
  subjectName,
  record,
  tree,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** whose record a new one is */
  subject: SubjectRef;
  subjectName: string;
  /** the draft or rejected record edited; null: a new declaration */
  record: CreditRecord | null;
  /** the subject's left tree: the standard items that apply to it */
  tree: CreditTree | undefined;
  onClose: () => void;
  onSaved: (r: CreditRecord) => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<RecordFormValues>();
  const leaves = useMemo(() => leavesOf(tree), [tree]);
  const standard = Form.useWatch('standard', form);
  const leaf = standard ? leaves.get(standard[1]) : undefined;
  const start = Form.useWatch('start', form);

  const options = useMemo(
    () =>
      (tree?.children ?? []).map((g) => ({
        value: g.primaryKey,
        label: `${g.nodeName}（${CREDIT_CONDUCT_LABELS[g.conduct]}）`,
        children: g.children.map((l) => ({
          value: l.primaryKey,
          label: `${l.nodeName}（最高 ${scoreText(l.highest)} 分）`,
        })),
      })),
    [tree],
  );

  /** The problem of one field now, as the rules of the contracts see the whole form. */
  const problemOf = (field: keyof RecordFormValues) => {
    const v = form.getFieldsValue(true) as RecordFormValues;
    const l = v.standard ? leaves.get(v.standard[1]) : undefined;
    const p = formProblems(v, l);
    const key = Object.keys(FIELD_OF).find((k) => FIELD_OF[k] === field);
    return key ? p[key] : undefined;
  };
  // a value refused and cleared (§5) keeps its message through the validation the clearing itself sets off
  const refusals = useRef<Partial<Record<keyof RecordFormValues, string>>>({});
  const rule = (field: keyof RecordFormValues) => ({
    validator: async (_: unknown, value: unknown) => {
      const refusal = refusals.current[field];
      delete refusals.current[field];
      if (refusal && (value === null || value === undefined)) throw new Error(refusal);
      const p = problemOf(field);
      if (p) throw new Error(p);
    },
  });

  /** §5: a score above the highest or negative, and an end before the start, are said and cleared. */
  const clearIfRefused = (field: 'score' | 'end') => {
    const p = problemOf(field);
    const refused = field === 'score' ? p && p !== CREDIT_MESSAGES.scoreRequired : p === CREDIT_MESSAGES.endBeforeStart;
    if (p && refused) {
      // said twice: on the field, and as a notice that stays when the picker settles the cleared field again
      void message.warning(p);
      refusals.current[field] = p;
      form.setFields([{ name: field, value: null, errors: [p] }]);
    } else void form.validateFields([field]).catch(() => undefined);
  };

  const values = (): Partial<RecordFormValues> => {
    if (!record) return { files: [], start: dayjs().startOf('day') };
    const l = leaves.get(record.standardId);
    return {
      standard: l ? [l.groupKey, l.primaryKey] : undefined,
      title: record.title,
      score: record.score,
      start: dayjs(record.startTime),
      end: dayjs(record.endTime),
      issuer: record.issuer ?? undefined,
      remark: record.remark ?? undefined,
      files: record.files.map((f) => ({
        fileId: f.fileId,
        fileName: f.fileName,
        fileSize: f.fileSize,
        url: fileUrl(f.fileId),
        preview: previewKind(f.fileName),
        annexNo: null,
      })),
    };
  };

  const submit = (v: RecordFormValues) => {
    const body = {
      standardId: v.standard?.[1] ?? '',
      title: v.title ?? '',
      score: Number(v.score),
      startTime: dayOf(v.start) ?? '',
      endTime: dayOf(v.end),
      issuer: v.issuer?.trim() || null,
      remark: v.remark?.trim() || null,
      fileIds: (v.files ?? []).map((f) => f.fileId),
    };
    return record
      ? updateRecord({ id: record.id, version: record.version, ...body })
      : addRecord({ subjectKind: subject.subjectKind, subjectId: subject.subjectId, ...body });
  };

  const latestEnd = leaf && start ? validityEnd(start.format(DAY), leaf.validityMonths) : null;

  return (
    <FormDialog<RecordFormValues, CreditRecord>
      open={open}
      subject={record ?? subject}
      form={form}
      title={record ? '修改信用记录' : '申报信用记录'}
      values={values}
      fields={['standard', 'score', 'start', 'end', 'title', 'issuer', 'remark', 'files']}
      mapName={(name) => [FIELD_OF[String(name[0])] ?? String(name[0]), ...name.slice(1)]}
      submit={submit}
      onClose={onClose}
      onSaved={onSaved}
      onInvalid={() => void message.error(CREDIT_MESSAGES.formInvalid)}
      variant="drawer"
      width={720}
      testId="record-save"
      dialogTestId="record-form"
      intro={
        <Typography.Paragraph type="secondary">
          申报对象：<Typography.Text strong>{subjectName}</Typography.Text>
          。保存后为草稿，提交后由审核人员审核，审核通过的记录在有效期内计入信用分。
        </Typography.Paragraph>
      }
    >
      <Form.Item
        name="standard"
        label="信用标准"
        required
        rules={[rule('standard')]}
        extra={
          leaf
            ? `${CREDIT_CONDUCT_LABELS[leaf.conduct]}，最高 ${scoreText(leaf.highest)} 分，有效期最长 ${leaf.validityMonths} 个月`
            : undefined
        }
      >
        <Cascader
          options={options}
          placeholder="请选择信用标准（分组 / 标准项）"
          showSearch
          onChange={() => {
            if (form.getFieldValue('score') !== undefined && form.getFieldValue('score') !== null)
              clearIfRefused('score');
          }}
          data-testid="record-standard"
        />
      </Form.Item>
      <Form.Item name="title" label="事由" rules={[{ required: true, whitespace: true, message: '请填写事由' }]}>
        <Input
          maxLength={200}
          placeholder="如：荣获 2025 年度山西省建设工程“汾水杯”质量奖"
          data-testid="record-title"
        />
      </Form.Item>
      <Row gutter={16}>
        <Col span={8}>
          <Form.Item name="score" label="分值" required rules={[rule('score')]}>
            <InputNumber
              style={{ width: '100%' }}
              precision={2}
              placeholder={leaf ? `0 – ${scoreText(leaf.highest)}` : '请输入分值'}
              onBlur={() => clearIfRefused('score')}
              data-testid="record-score"
            />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="start" label="开始时间" required rules={[rule('start')]}>
            <DatePicker
              style={{ width: '100%' }}
              format={DAY}
              onChange={() => {
                if (form.getFieldValue('end')) clearIfRefused('end');
              }}
              data-testid="record-start"
            />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="end"
            label="结束时间"
            rules={[rule('end')]}
            extra={latestEnd ? `不填则至 ${latestEnd}` : '不填则按标准项的有效期'}
          >
            <DatePicker
              style={{ width: '100%' }}
              format={DAY}
              onChange={() => clearIfRefused('end')}
              data-testid="record-end"
            />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="issuer" label="认定单位">
            <Input maxLength={100} placeholder="如：山西省住房和城乡建设厅" data-testid="record-issuer" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="remark" label="备注">
            <Input maxLength={500} data-testid="record-remark" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="files" label="证明材料" required rules={[rule('files')]}>
        <EvidenceField />
      </Form.Item>
    </FormDialog>
  );
}

/** The evidence files of the form (a Form.Item's value): uploads go to the credit node, removals stay until 保存. */
function EvidenceField({
  value = [],
  onChange,
}: {
  value?: AttachmentFile[];
  onChange?: (files: AttachmentFile[]) => void;
}) {
  return (
    <AttachmentUploader
      files={value}
      target={EVIDENCE_TARGET}
      onUploaded={(f, local) => onChange?.([...value, uploadedAttachment(f, local)])}
      onRemove={(f) => {
        onChange?.(value.filter((x) => x.fileId !== f.fileId));
        // uploaded in this edit and never attached: nothing refers to it
        if (f.added) void deleteUploadedFile(f.fileId).catch(() => undefined);
      }}
      testId="record-files"
    />
  );
}
