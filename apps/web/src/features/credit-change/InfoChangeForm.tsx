import type { RfcContact, RfcDataItem, RfcField } from '@ks/contracts';
import { DatePicker, Input, InputNumber, Select, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import type { HTMLAttributes } from 'react';
import type { FormValue } from './model';

const DAY = 'YYYY-MM-DD';

export interface InfoChangeFormProps {
  fields: RfcField[];
  /** the business record's current values (raw), by field code */
  current: Readonly<Record<string, string | null>>;
  values: Readonly<Record<string, FormValue>>;
  errors: Readonly<Record<string, string>>;
  /** a new value; `commit` false while a number is being typed (it is checked on blur) */
  onChange: (code: string, value: FormValue, commit?: boolean) => void;
  /** a typed value is complete: check it */
  onCommit: (code: string) => void;
  /** contact-person changes: the enterprise's people */
  contacts?: RfcContact[];
  contactsLoading?: boolean;
}

/** The text of a raw value: an option's label, a contact's name, the value itself; empty as 未填写. */
export function valueText(field: RfcField, raw: string | null | undefined, contacts: readonly RfcContact[] = []) {
  if (raw === null || raw === undefined || raw === '') return field.type === 'file' ? '未上传' : '未填写';
  if (field.options?.length) return field.options.find((o) => o.value === raw)?.label ?? raw;
  if (field.type === 'contact') {
    const c = contacts.find((p) => p.id === raw);
    return c ? `${c.ryName}${c.tel ? `（${c.tel}）` : ''}` : raw;
  }
  if (field.type === 'file') {
    const n = raw.split(',').filter(Boolean).length;
    return n ? `${n} 个文件` : '未上传';
  }
  return raw;
}

interface Row {
  field: RfcField;
}

/**
 * The before/after form of an information change (screen 1): one row per field — its current value read-only beside
 * the new value. Read-only fields (the chosen type may not change them) show their value on both sides. A credit
 * record's fields are start_time, end_time, score, xx_grouping, standard and enclosure; choosing a standard sets its
 * group, and the groups narrow the standards.
 */
export function InfoChangeForm({
  fields,
  current,
  values,
  errors,
  onChange,
  onCommit,
  contacts = [],
  contactsLoading,
}: InfoChangeFormProps) {
  const group = typeof values.xx_grouping === 'string' ? values.xx_grouping : null;

  const input = (f: RfcField) => {
    const v = values[f.code] ?? null;
    const status = errors[f.code] ? ('error' as const) : undefined;
    const testId = `rfc-new-${f.code}`;
    if (f.type === 'file') {
      // the record's evidence files are replaced by the round's materials (变更材料) when it passes
      return (
        <Typography.Text type="secondary" data-testid={testId}>
          以本次「变更材料」为准
        </Typography.Text>
      );
    }
    if (f.readonly) return <span data-testid={testId}>{valueText(f, current[f.code], contacts)}</span>;
    switch (f.type) {
      case 'date':
        return (
          <DatePicker
            value={typeof v === 'string' && dayjs(v, DAY, true).isValid() ? dayjs(v, DAY) : null}
            format={DAY}
            status={status}
            style={{ width: '100%' }}
            placeholder={`请选择${f.name}`}
            onChange={(d) => onChange(f.code, d ? d.format(DAY) : null)}
            data-testid={testId}
          />
        );
      case 'number':
        return (
          <InputNumber
            value={typeof v === 'number' ? v : null}
            status={status}
            step={1}
            style={{ width: '100%' }}
            placeholder={`请输入${f.name}`}
            // the score is checked when it is complete (on blur or Enter), so 1 on the way to 12 is not refused
            onChange={(n) => onChange(f.code, typeof n === 'number' ? n : null, false)}
            onBlur={() => onCommit(f.code)}
            onPressEnter={() => onCommit(f.code)}
            onStep={() => onCommit(f.code)}
            addonAfter={f.code === 'score' && f.highest !== undefined ? `最高 ${f.highest} 分` : undefined}
            data-testid={testId}
          />
        );
      case 'select': {
        const options = (f.options ?? []).filter(
          (o) => f.code !== 'standard' || !group || !o.group || o.group === group,
        );
        return (
          <Select
            value={typeof v === 'string' ? v : undefined}
            status={status}
            allowClear={!f.required}
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: '100%' }}
            placeholder={`请选择${f.name}`}
            options={options.map((o) => ({ value: o.value, label: o.label }))}
            onChange={(next?: string) => onChange(f.code, next ?? null)}
            data-testid={testId}
          />
        );
      }
      case 'contact':
        return (
          <Select
            value={typeof v === 'string' ? v : undefined}
            status={status}
            loading={contactsLoading}
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: '100%' }}
            placeholder="请选择联系人"
            options={contacts.map((c) => ({ value: c.id, label: `${c.ryName}${c.tel ? `（${c.tel}）` : ''}` }))}
            onChange={(next?: string) => onChange(f.code, next ?? null)}
            data-testid={testId}
          />
        );
      case 'textarea':
        return (
          <Input.TextArea
            value={typeof v === 'string' ? v : ''}
            status={status}
            rows={2}
            onChange={(e) => onChange(f.code, e.target.value)}
            data-testid={testId}
          />
        );
      default:
        return (
          <Input
            value={typeof v === 'string' ? v : v === null ? '' : String(v)}
            status={status}
            placeholder={`请输入${f.name}`}
            onChange={(e) => onChange(f.code, e.target.value)}
            data-testid={testId}
          />
        );
    }
  };

  return (
    <Table<Row>
      size="small"
      bordered
      rowKey={(r) => r.field.code}
      pagination={false}
      dataSource={fields.map((field) => ({ field }))}
      data-testid="rfc-form"
      onRow={(r) => ({ 'data-testid': `rfc-row-${r.field.code}` }) as HTMLAttributes<HTMLElement>}
      columns={[
        {
          title: '变更项',
          key: 'name',
          width: 130,
          render: (_, { field: f }) => (
            <span>
              {f.required && !f.readonly ? <span style={{ color: '#ff4d4f', marginInlineEnd: 4 }}>*</span> : null}
              {f.name}
            </span>
          ),
        },
        {
          title: '变更前',
          key: 'old',
          width: '36%',
          render: (_, { field: f }) => (
            <Typography.Text type="secondary" data-testid={`rfc-old-${f.code}`}>
              {valueText(f, current[f.code], contacts)}
            </Typography.Text>
          ),
        },
        {
          title: '变更后',
          key: 'new',
          render: (_, { field: f }) => (
            <div>
              {input(f)}
              {errors[f.code] ? (
                <div style={{ color: '#ff4d4f', fontSize: 12, marginTop: 2 }} data-testid={`rfc-error-${f.code}`}>
                  {errors[f.code]}
                </div>
              ) : null}
            </div>
          ),
        },
      ]}
    />
  );
}

/** A decided or saved round's changes as the server stored them: field, before, after (files aside). */
export function ChangeDataTable({ items }: { items: RfcDataItem[] }) {
  const rows = items.filter((i) => i.dataType !== '附件');
  if (!rows.length) return null;
  return (
    <Table<RfcDataItem>
      size="small"
      bordered
      rowKey="changeField"
      pagination={false}
      dataSource={rows}
      data-testid="rfc-data"
      onRow={(r) => ({ 'data-testid': `rfc-data-${r.changeField}` }) as HTMLAttributes<HTMLElement>}
      columns={[
        { title: '变更项', dataIndex: 'fieldName', width: 130 },
        {
          title: '变更前',
          key: 'old',
          width: '36%',
          render: (_, i) => <Typography.Text type="secondary">{i.oldText ?? i.oldValue ?? '未填写'}</Typography.Text>,
        },
        {
          title: '变更后',
          key: 'new',
          render: (_, i) => <Typography.Text strong>{i.newText ?? i.newValue ?? '未填写'}</Typography.Text>,
        },
      ]}
    />
  );
}
