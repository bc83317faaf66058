import {
  type FieldDef,
  type FieldValues,
  isEmpty,
  isMultiValueType,
  isSwitchOn,
  joinValue,
  OPTION_SOURCES,
  optionSourceOf,
  SWITCH_OFF,
  SWITCH_ON,
  splitValue,
  type ValidateOptions,
} from '@ks/contracts';
import {
  App,
  AutoComplete,
  Button,
  Cascader,
  Checkbox,
  Input,
  InputNumber,
  Radio,
  Select,
  Space,
  Spin,
  Switch,
  Tag,
  Transfer,
  TreeSelect,
  Typography,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { LazyRichTextEditor } from '../../components/editor/LazyRichTextEditor';
import { useDebouncedCallback } from '../list/hooks';
import { DateRangeWidget, DateWidget } from './DateWidgets';
import {
  type FieldOptionsState,
  findOption,
  type OptionContext,
  truncateDepth,
  type UiOption,
  useFieldOptions,
} from './options';
import { ReadOnlyValue } from './ReadOnlyValue';

/**
 * The widget of each field type of screen 13 (antd). What each variant means here:
 *
 * | type            | widget                                                        | value kept                    |
 * |-----------------|---------------------------------------------------------------|-------------------------------|
 * | read-text       | the value as text, never edited or validated                  | as given                      |
 * | select          | single select                                                  | option value                  |
 * | filter-select   | single select searched on the server: typed text sent as `key`| option value                  |
 * |                 | (debounced); inline lists are filtered locally                 |                               |
 * | select-filter   | single select filtered locally by label as you type            | option value                  |
 * | select-link     | single select whose option's curInfo `{code: value}` fills     | option value                  |
 * |                 | those fields of the form (cleared again with it)               |                               |
 * | select-m        | multiple select (tags)                                         | values joined with `;`        |
 * | select-multiple | multiple select with search, tags collapsed to fit             | values joined with `;`        |
 * | multi-select    | tree select with check boxes (children of checked parents)     | leaf values joined with `;`   |
 * | selects         | a group of checkable tags                                      | values joined with `;`        |
 * | select-edit     | input with suggestions: pick one or type free text             | the text (length/regex apply) |
 * | cascader        | cascader down to a leaf of the whole tree                      | path joined with `/`          |
 * | cascader-1/2/3  | cascader over the first 1, 2 or 3 levels of the tree           | path joined with `/`          |
 * |                 | (e.g. province; province/city; province/city/district)         |                               |
 * | cascaders       | cascader choosing several paths                                | paths `/`, joined with `;`    |
 * | checkbox        | check box group                                                | values joined with `;`        |
 * | radio           | radio group                                                    | option value                  |
 * | transfer        | two-list transfer                                              | chosen keys joined with `;`   |
 * | transfer-1      | one-way transfer with search in both lists                     | chosen keys joined with `;`   |
 * | switch          | switch 是/否                                                    | '1' / '0'                     |
 * | switch-1        | switch that shows its children (and makes them required)       | '1' / '0'                     |
 * | switch-2        | switch fixed on, not editable                                  | always '1'                    |
 * | y_n_ent         | 是 / 否 radio buttons (its own list when it has one)            | '1' / '0'                     |
 * | editor          | rich-text editor (screen 12), loaded in its own chunk          | sanitised HTML                |
 * | text            | input, max length counted                                      | text                          |
 * | textarea        | text area, max length counted                                  | text                          |
 * | number          | number input without buttons: min 1, step 1, precision 0       | number                        |
 * | input-number    | the same with +/- buttons                                      | number                        |
 * | sex             | radio 男 / 女                                                   | 男 or 女                      |
 * | datetime        | date and time, YYYY-MM-DD HH:mm, minutes on a 15-minute step   | YYYY-MM-DD HH:mm              |
 * | date            | date, YYYY-MM-DD                                               | YYYY-MM-DD                    |
 * | daterange       | two dates                                                      | start,end                     |
 */

export interface WidgetProps {
  field: FieldDef;
  fields: readonly FieldDef[];
  values: FieldValues;
  value: unknown;
  /** `fill`: other fields' values set with this change (select-link) */
  onChange: (value: unknown, fill?: FieldValues) => void;
  onBlur: () => void;
  onInvalidText: (message: string) => void;
  disabled: boolean;
  status?: 'error';
  ctx: OptionContext;
  /** today and the current minute in the platform's zone, for date limits and validators */
  clock: ValidateOptions;
}

/** filter-select waits this long after the last key stroke before asking the server. */
export const FILTER_DEBOUNCE_MS = 300;

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));
const orNull = (s: string) => (s === '' ? null : s);

/** What an option list says when it has nothing to offer: loading, failed (with 重试), blocked, or empty. */
export function OptionsNotice({ state }: { state: FieldOptionsState }): ReactNode {
  if (state.blocked) {
    return (
      <Typography.Text type="warning" data-testid="options-blocked">
        {state.blocked}
      </Typography.Text>
    );
  }
  if (state.loading) {
    return (
      <Space data-testid="options-loading">
        <Spin size="small" />
        <span>加载中...</span>
      </Space>
    );
  }
  if (state.error) {
    return (
      <Space data-testid="options-error">
        <Typography.Text type="danger">选项加载失败：{state.error}</Typography.Text>
        <Button size="small" type="link" onClick={state.retry}>
          重试
        </Button>
      </Space>
    );
  }
  return <Typography.Text type="secondary">暂无数据</Typography.Text>;
}

/** The values a select-link option's curInfo gives to other fields of the form. */
export function curInfoFill(option: UiOption | null, fields: readonly FieldDef[], clear = false): FieldValues {
  const info = option?.curInfo;
  if (!info || typeof info !== 'object' || Array.isArray(info)) return {};
  const codes = new Set(fields.map((f) => f.code));
  const out: FieldValues = {};
  for (const [k, v] of Object.entries(info as Record<string, unknown>)) if (codes.has(k)) out[k] = clear ? null : v;
  return out;
}

function useOptionsWarning(state: FieldOptionsState) {
  const { message } = App.useApp();
  return (open: boolean) => {
    if (open && state.blocked) void message.warning(state.blocked);
  };
}

function SelectWidget(props: WidgetProps) {
  const { field, fields, values, value, onChange, onBlur, disabled, status, ctx } = props;
  const { type } = field;
  const source = optionSourceOf(field);
  const remoteSearch =
    type === 'filter-select' && (source === OPTION_SOURCES.pullDown || source === OPTION_SOURCES.dic);
  const [key, setKey] = useState('');
  const search = useDebouncedCallback((k: string) => setKey(k), FILTER_DEBOUNCE_MS);
  const state = useFieldOptions(field, ctx, values, remoteSearch ? key : undefined);
  const warn = useOptionsWarning(state);
  const multiple = isMultiValueType(type);
  const localSearch =
    type === 'select-filter' || type === 'select-multiple' || (type === 'filter-select' && !remoteSearch);
  const common = {
    options: state.options,
    disabled,
    status: state.error ? ('error' as const) : status,
    loading: state.loading,
    notFoundContent: <OptionsNotice state={state} />,
    onOpenChange: warn,
    onBlur,
    allowClear: true,
    placeholder: `请选择${field.name}`,
    style: { width: '100%' },
  };
  if (multiple) {
    return (
      <Select<string[]>
        {...common}
        mode="multiple"
        value={splitValue(type, value)}
        onChange={(v) => onChange(orNull(joinValue(type, v)))}
        maxTagCount={type === 'select-multiple' ? 'responsive' : undefined}
        showSearch={localSearch ? { optionFilterProp: 'label' } : undefined}
      />
    );
  }
  return (
    <Select<string>
      {...common}
      value={isEmpty(value) ? undefined : text(value)}
      onChange={(v) => {
        const next = v ?? null;
        let fill: FieldValues | undefined;
        if (type === 'select-link') {
          const before = isEmpty(value) ? null : findOption(state.options, text(value));
          const after = next === null ? null : findOption(state.options, next);
          fill = { ...curInfoFill(before, fields, true), ...curInfoFill(after, fields) };
        }
        onChange(next, fill);
      }}
      showSearch={
        remoteSearch
          ? { filterOption: false, onSearch: search }
          : localSearch
            ? { optionFilterProp: 'label' }
            : undefined
      }
    />
  );
}

function TreeSelectWidget(props: WidgetProps) {
  const { field, values, value, onChange, onBlur, disabled, status, ctx } = props;
  const state = useFieldOptions(field, ctx, values);
  const warn = useOptionsWarning(state);
  return (
    <TreeSelect<string[]>
      treeData={state.options}
      fieldNames={{ label: 'label', value: 'value', children: 'children' }}
      treeCheckable
      showCheckedStrategy={TreeSelect.SHOW_CHILD}
      value={splitValue(field.type, value)}
      onChange={(v) => onChange(orNull(joinValue(field.type, v)))}
      onOpenChange={warn}
      onBlur={onBlur}
      disabled={disabled}
      status={state.error ? 'error' : status}
      loading={state.loading}
      notFoundContent={<OptionsNotice state={state} />}
      placeholder={`请选择${field.name}`}
      allowClear
      style={{ width: '100%' }}
    />
  );
}

function CascaderWidget(props: WidgetProps) {
  const { field, values, value, onChange, onBlur, disabled, status, ctx } = props;
  const { type } = field;
  const state = useFieldOptions(field, ctx, values);
  const warn = useOptionsWarning(state);
  const depth = type === 'cascader-1' ? 1 : type === 'cascader-2' ? 2 : type === 'cascader-3' ? 3 : 0;
  const options = depth ? truncateDepth(state.options, depth) : state.options;
  const common = {
    options,
    disabled,
    status: state.error ? ('error' as const) : status,
    notFoundContent: <OptionsNotice state={state} />,
    onOpenChange: warn,
    onBlur,
    allowClear: true,
    placeholder: `请选择${field.name}`,
    style: { width: '100%' },
    showSearch: {
      filter: (input: string, path: { label?: ReactNode }[]) => path.some((o) => String(o.label).includes(input)),
    },
  };
  if (type === 'cascaders') {
    return (
      <Cascader
        {...common}
        multiple
        showCheckedStrategy={Cascader.SHOW_CHILD}
        value={splitValue('cascaders', value)}
        onChange={(paths) => onChange(orNull(joinValue('cascaders', (paths ?? []) as string[][])))}
      />
    );
  }
  return (
    <Cascader
      {...common}
      value={splitValue(type, value)}
      onChange={(path) => onChange(orNull(joinValue(type, (path ?? []) as string[])))}
    />
  );
}

/** Radio, check box and tag groups, and transfers: the options inline, or what they lack in their place. */
function GroupWidget(props: WidgetProps) {
  const { field, values, value, onChange, disabled, ctx } = props;
  const { type } = field;
  const state = useFieldOptions(field, ctx, values);
  if (state.options.length === 0) return <OptionsNotice state={state} />;
  const plain = state.options.map((o) => ({ label: o.label, value: o.value, disabled: o.disabled }));
  if (type === 'checkbox') {
    return (
      <Checkbox.Group
        options={plain}
        value={splitValue(type, value)}
        onChange={(v) => onChange(orNull(joinValue(type, v as string[])))}
        disabled={disabled}
      />
    );
  }
  if (type === 'selects') {
    return (
      <Tag.CheckableTagGroup<string>
        multiple
        options={plain.map((o) => ({ label: o.label, value: o.value }))}
        value={splitValue(type, value)}
        onChange={(v) => onChange(orNull(joinValue(type, v)))}
        disabled={disabled}
      />
    );
  }
  if (type === 'transfer' || type === 'transfer-1') {
    return (
      <Transfer
        dataSource={state.options.map((o) => ({ key: o.value, title: o.label, disabled: o.disabled }))}
        targetKeys={splitValue(type, value)}
        onChange={(keys) => onChange(orNull(joinValue(type, keys.map(String))))}
        render={(item) => item.title ?? ''}
        titles={['可选项', '已选项']}
        showSearch={type === 'transfer-1'}
        oneWay={type === 'transfer-1'}
        disabled={disabled}
        styles={{ section: { width: '100%', height: 240 } }}
      />
    );
  }
  return (
    <Radio.Group
      options={plain}
      optionType={type === 'y_n_ent' ? 'button' : 'default'}
      value={isEmpty(value) ? undefined : text(value)}
      onChange={(e) => onChange(e.target.value)}
      disabled={disabled}
    />
  );
}

function SelectEditWidget(props: WidgetProps) {
  const { field, values, value, onChange, onBlur, disabled, status, ctx } = props;
  const state = useFieldOptions(field, ctx, values);
  const warn = useOptionsWarning(state);
  return (
    <AutoComplete
      options={state.options.map((o) => ({ value: o.label }))}
      value={text(value)}
      onChange={(v) => onChange(v)}
      onOpenChange={warn}
      onBlur={onBlur}
      disabled={disabled}
      status={status}
      placeholder={`请输入或选择${field.name}`}
      showSearch={{ filterOption: (input, o) => String(o?.value ?? '').includes(input) }}
      maxLength={field.length || undefined}
      allowClear
      style={{ width: '100%' }}
    />
  );
}

const toNumber = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};

/** The editable widget of a field, by type (see the table above). */
export function FieldWidget(props: WidgetProps) {
  const { field, value, onChange, onBlur, disabled, status } = props;
  const { type, name } = field;
  const placeholder = `请输入${name}`;
  switch (type) {
    case 'read-text':
      return <ReadOnlyValue field={field} values={props.values} ctx={props.ctx} />;
    case 'select':
    case 'filter-select':
    case 'select-filter':
    case 'select-link':
    case 'select-m':
    case 'select-multiple':
      return <SelectWidget {...props} />;
    case 'multi-select':
      return <TreeSelectWidget {...props} />;
    case 'select-edit':
      return <SelectEditWidget {...props} />;
    case 'cascader':
    case 'cascader-1':
    case 'cascader-2':
    case 'cascader-3':
    case 'cascaders':
      return <CascaderWidget {...props} />;
    case 'checkbox':
    case 'radio':
    case 'selects':
    case 'transfer':
    case 'transfer-1':
    case 'y_n_ent':
    case 'sex':
      return <GroupWidget {...props} />;
    case 'switch':
    case 'switch-1':
    case 'switch-2':
      return (
        <Switch
          checked={type === 'switch-2' || isSwitchOn(value)}
          onChange={(on) => onChange(on ? SWITCH_ON : SWITCH_OFF)}
          disabled={disabled || type === 'switch-2'}
          checkedChildren="是"
          unCheckedChildren="否"
        />
      );
    case 'editor':
      return (
        <LazyRichTextEditor
          value={text(value)}
          onChange={(html) => onChange(orNull(html))}
          onBlur={onBlur}
          disabled={disabled}
        />
      );
    case 'textarea':
      return (
        <Input.TextArea
          value={text(value)}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          disabled={disabled}
          status={status}
          placeholder={placeholder}
          maxLength={field.length || undefined}
          showCount={!!field.length}
          autoSize={{ minRows: 3, maxRows: 8 }}
        />
      );
    case 'number':
    case 'input-number':
      return (
        <InputNumber<number>
          value={toNumber(value)}
          onChange={(n) => onChange(n ?? null)}
          onBlur={onBlur}
          disabled={disabled}
          status={status}
          placeholder={placeholder}
          min={1}
          step={1}
          precision={0}
          controls={type === 'input-number'}
          style={{ width: '100%' }}
        />
      );
    case 'date':
    case 'datetime':
      return <DateWidget {...props} onChange={(v) => onChange(v)} />;
    case 'daterange':
      return <DateRangeWidget {...props} onChange={(v) => onChange(v)} />;
    default:
      return (
        <Input
          value={text(value)}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          disabled={disabled}
          status={status}
          placeholder={placeholder}
          maxLength={field.length || undefined}
          showCount={!!field.length}
          allowClear
        />
      );
  }
}
