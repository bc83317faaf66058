import { type FieldDef, type FieldOption, isCascaderType, isOptionType, normaliseSearch } from '@ks/contracts';
import { Cascader, DatePicker, Input, Radio, Select } from 'antd';
import dayjs from 'dayjs';

/** A search field: the FieldDef subset a search form needs (type text, select, radio, date, daterange, cascader …). */
export type SearchField = Pick<FieldDef, 'code' | 'name' | 'options'> & { type: FieldDef['type'] | 'link' };

export interface SearchOption {
  label: string;
  value: string;
  disabled?: boolean;
  children?: SearchOption[];
}

/** A field's options as {label, value, children}, read through options.labelKey / valueKey. */
export function searchOptions(field: Pick<SearchField, 'options'>): SearchOption[] {
  const labelKey = field.options?.labelKey || 'label';
  const valueKey = field.options?.valueKey || 'value';
  const map = (list: FieldOption[] | undefined): SearchOption[] =>
    (list ?? []).map((o) => {
      const value = o[valueKey] ?? o.value ?? o[labelKey];
      const label = o[labelKey] ?? o.label ?? value;
      return {
        label: String(label ?? ''),
        value: String(value ?? ''),
        disabled: o.isDisabled === true || undefined,
        children: o.children?.length ? map(o.children) : undefined,
      };
    });
  return map(field.options?.list);
}

/** The width of a text at 14 px: CJK and full-width characters a full em, others about half. */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/.test(ch) ? 14 : 8;
  return w;
}

/**
 * The width of a label column that fits its longest label on one line (plus the colon and the gap), within `min` and
 * `max`; a longer label ends in … and shows in full on hover (FieldLabel).
 */
export function labelWidth(names: readonly string[], { min = 56, max = 144 }: { min?: number; max?: number } = {}) {
  const widest = Math.max(0, ...names.map(textWidth));
  return Math.min(max, Math.max(min, widest + 24));
}

/** One-line ellipsis with the full text on hover, for labels in a fixed-width column. */
export const ONE_LINE = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 } as const;

/** A form label on one line: cut with … when too long for its column, the whole name in its title. */
export function FieldLabel({ name }: { name: string }) {
  return (
    <span title={name} style={ONE_LINE}>
      {name}
    </span>
  );
}

const DATE_FORMAT = 'YYYY-MM-DD';

/** Form values with dates as YYYY-MM-DD text, ready for normaliseSearch. */
export function plainValues(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    if (dayjs.isDayjs(v)) out[k] = v.format(DATE_FORMAT);
    else if (Array.isArray(v)) out[k] = v.map((x) => (dayjs.isDayjs(x) ? x.format(DATE_FORMAT) : x));
    else out[k] = v;
  }
  return out;
}

/** §5 search values: empty dropped, date ranges joined with ',', arrays (cascader paths) their last element. */
export function searchValues(values: Record<string, unknown>): Record<string, string> {
  return normaliseSearch(plainValues(values));
}

/** The input of a search field, by type. Controlled by the antd Form.Item around it. */
export function SearchInput({ field, ...control }: { field: SearchField; value?: unknown; onChange?: unknown }) {
  const { type, name, code } = field;
  const testId = `search-field-${code}`;
  const props = control as Record<string, never>;
  if (type === 'date' || type === 'datetime') {
    return <DatePicker {...props} placeholder={`请选择${name}`} style={{ width: '100%' }} data-testid={testId} />;
  }
  if (type === 'daterange') {
    return <DatePicker.RangePicker {...props} style={{ width: '100%' }} data-testid={testId} />;
  }
  if (isCascaderType(type)) {
    return (
      <Cascader
        {...props}
        options={searchOptions(field)}
        placeholder={`请选择${name}`}
        changeOnSelect
        allowClear
        style={{ width: '100%' }}
        data-testid={testId}
      />
    );
  }
  if (type === 'radio' || type === 'sex' || type === 'y_n_ent') {
    return (
      <Radio.Group {...props} data-testid={testId}>
        {searchOptions(field).map((o) => (
          <Radio key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </Radio>
        ))}
      </Radio.Group>
    );
  }
  if (isOptionType(type)) {
    return (
      <Select
        {...props}
        options={searchOptions(field)}
        placeholder={`请选择${name}`}
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        style={{ width: '100%' }}
        data-testid={testId}
      />
    );
  }
  return <Input {...props} placeholder={`请输入${name}`} allowClear data-testid={testId} />;
}
