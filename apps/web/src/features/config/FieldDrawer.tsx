import { LockOutlined } from '@ant-design/icons';
import {
  codeList,
  FIELD_VALIDATORS,
  type FieldDef,
  type FieldOption,
  type FieldType,
  type FieldValidator,
  fieldCodeProblem,
  fieldListProblems,
  isCascaderType,
  isDateType,
  isFilterType,
  isTextType,
  OPTION_SOURCES,
  type OptionSource,
  type OptionSourceType,
  optionSourceOf,
  PULL_DOWN_SOURCES,
  type PullDownSourceName,
  timeStepMinutes,
  validatorFits,
  validatorsFor,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  AutoComplete,
  Button,
  Col,
  Divider,
  Drawer,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Space,
  Switch,
  Tooltip,
  Typography,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { nodePreviewQuery } from '../../api/config';
import { dictionaryCodesQuery, sourceFieldsQuery } from '../../api/fields';
import { NodeSelector } from '../../components/admin';
import {
  FIELD_TYPE_GROUPS,
  FIELD_TYPE_LABELS,
  hasOptionEditor,
  SOURCE_FIELD_LABELS,
  savedOf,
  TYPE_LOCKED_TIP,
  typeLabel,
} from './fieldRows';
import { OptionListEditor } from './OptionListEditor';

/**
 * The drawer that adds or edits one field of the editor's list: every property of §3's form field definition that
 * applies to the chosen type, its options (inline list, dictionary, another node's fields or a built-in source, the
 * 资质 tree) and its filter flag. 确定 runs the contracts' field rules on the whole list with this field in place and
 * keeps the drawer open while any fails.
 */

type SourceKind = 'node' | 'name';

export interface FieldForm {
  code: string;
  name: string;
  type: FieldType;
  required: 0 | 1 | 2;
  show: boolean;
  readonly: boolean;
  filter: boolean;
  col?: number | null;
  tips?: string;
  length?: number | null;
  regex?: string;
  prompt?: string;
  showPrompt: boolean;
  parentNode: string[];
  childNode: string[];
  groupNumber?: string;
  limitStartDate?: string;
  limitEndDate?: string;
  step?: number | null;
  /** a FIELD_VALIDATORS code, or empty */
  validator?: FieldValidator | null;
  sourceType: OptionSourceType;
  list: FieldOption[];
  titleCoding?: string;
  sourceKind: SourceKind;
  sourceNode?: string | null;
  sourceName?: PullDownSourceName;
  labelField?: string;
  valueField?: string;
  parents: Record<string, string | undefined>;
}

const blankField = (): FieldDef => ({ code: '', name: '', type: 'text', required: 0, show: true });

export function toForm(def: FieldDef, filterOn: boolean): FieldForm {
  const src = def.options?.source;
  return {
    code: def.code,
    name: def.name,
    type: def.type,
    required: ([0, 1, 2] as const).includes(Number(def.required) as 0) ? (Number(def.required) as 0 | 1 | 2) : 0,
    show: def.show !== false,
    readonly: !!def.readonly,
    filter: filterOn,
    col: def.col ?? null,
    tips: def.tips ?? '',
    length: def.length ?? null,
    regex: def.regex ?? '',
    prompt: def.prompt ?? '',
    showPrompt: !!def.showPrompt,
    parentNode: codeList(def.parentNode),
    childNode: codeList(def.childNode),
    groupNumber: def.groupNumber ?? '',
    limitStartDate: def.limitStartDate ?? '',
    limitEndDate: def.limitEndDate ?? '',
    step: def.step === undefined || def.step === '' ? null : timeStepMinutes(def),
    validator: def.validator ?? null,
    sourceType: optionSourceOf(def),
    list: def.options?.list ?? [],
    titleCoding: def.titleCoding ?? undefined,
    sourceKind: src?.name ? 'name' : 'node',
    sourceNode: src?.gnCoding ?? null,
    sourceName: src?.name,
    labelField: src?.labelField,
    valueField: src?.valueField,
    parents: { ...(src?.parents ?? {}) },
  };
}

const trimmed = (s: string | undefined | null) => (s ?? '').trim();

/** Options with empty rows dropped and a missing value or text taken from the other. */
function tidyOptions(list: FieldOption[], labelKey: string, valueKey: string): FieldOption[] {
  const out: FieldOption[] = [];
  for (const o of list) {
    const label = trimmed(o[labelKey] === undefined ? undefined : String(o[labelKey]));
    const value = trimmed(o[valueKey] === undefined ? undefined : String(o[valueKey]));
    const children = o.children ? tidyOptions(o.children, labelKey, valueKey) : undefined;
    if (!label && !value && !children?.length) continue;
    const next: FieldOption = { ...o, [labelKey]: label || value, [valueKey]: value || label };
    if (children?.length) next.children = children;
    else delete next.children;
    out.push(next);
  }
  return out;
}

/** The definition the form describes, on top of `base` (keys the form does not edit are kept). */
export function fromForm(v: FieldForm, base: FieldDef): FieldDef {
  const def: FieldDef = {
    ...base,
    code: trimmed(v.code),
    name: trimmed(v.name),
    type: v.type,
    required: v.required,
    show: !!v.show,
    readonly: !!v.readonly,
    col: v.col ?? undefined,
    tips: v.tips,
    parentNode: v.parentNode.join(','),
    childNode: v.childNode.join(','),
    groupNumber: trimmed(v.groupNumber),
  };
  const text = isTextType(v.type);
  def.length = text ? (v.length ?? undefined) : undefined;
  def.regex = text ? v.regex : undefined;
  def.prompt = text ? v.prompt : undefined;
  def.showPrompt = text ? !!v.showPrompt : undefined;
  const date = isDateType(v.type);
  def.limitStartDate = date ? trimmed(v.limitStartDate) : undefined;
  def.limitEndDate = date ? trimmed(v.limitEndDate) : undefined;
  def.step = v.type === 'datetime' || v.type === 'daterange' ? (v.step ?? undefined) : undefined;
  // a validator stays only on a type it applies to
  def.validator = v.validator && validatorFits(v.validator, v.type) ? v.validator : undefined;
  def.titleCoding = undefined;
  if (hasOptionEditor(v.type)) {
    const { type: _t, source: _s, ...rest } = base.options ?? { list: [] };
    const labelKey = rest.labelKey || 'label';
    const valueKey = rest.valueKey || 'value';
    if (v.sourceType === OPTION_SOURCES.static) {
      def.options = { ...rest, list: tidyOptions(v.list ?? [], labelKey, valueKey) };
    } else if (v.sourceType === OPTION_SOURCES.dic) {
      def.options = { list: [], type: OPTION_SOURCES.dic };
      def.titleCoding = v.titleCoding;
    } else if (v.sourceType === OPTION_SOURCES.cert) {
      def.options = { list: [], type: OPTION_SOURCES.cert };
    } else {
      const parents = Object.fromEntries(
        Object.entries(v.parents ?? {}).filter(([p, t]) => t && v.parentNode.includes(p)) as [string, string][],
      );
      const source: OptionSource = {
        ...(v.sourceKind === 'name' ? { name: v.sourceName } : { gnCoding: v.sourceNode ?? undefined }),
        labelField: v.labelField ?? '',
        valueField: v.valueField ?? '',
      } as OptionSource;
      if (Object.keys(parents).length) source.parents = parents;
      def.options = { list: [], type: OPTION_SOURCES.pullDown, source };
    }
  } else if (v.type !== 'sex') {
    def.options = undefined;
  }
  // undefined keys go: the definition carries only what is set
  for (const k of Object.keys(def) as (keyof FieldDef)[]) if (def[k] === undefined) delete def[k];
  return def;
}

/** A problem path of a field → the drawer's form field that shows it. */
export function formNameOf(path: string): keyof FieldForm | null {
  if (path.startsWith('options.list') || path === 'options.labelKey' || path === 'options.valueKey') return 'list';
  if (path === 'options.type') return 'sourceType';
  const m = /^options\.source\.(\w+)/.exec(path);
  if (m) {
    return (
      ({ gnCoding: 'sourceNode', name: 'sourceName', labelField: 'labelField', valueField: 'valueField' } as const)[
        m[1] as 'gnCoding'
      ] ?? 'parents'
    );
  }
  const plain: (keyof FieldForm)[] = [
    'code',
    'name',
    'type',
    'required',
    'show',
    'readonly',
    'filter',
    'col',
    'tips',
    'length',
    'regex',
    'prompt',
    'showPrompt',
    'parentNode',
    'childNode',
    'groupNumber',
    'limitStartDate',
    'limitEndDate',
    'step',
    'validator',
    'titleCoding',
  ];
  return plain.includes(path as keyof FieldForm) ? (path as keyof FieldForm) : null;
}

/**
 * The validator select of a type (FIELD_VALIDATORS): identifiers for free text, not before / after today for dates;
 * nothing for types no validator fits.
 */
function ValidatorItem({ type }: { type: FieldType }) {
  const offered = validatorsFor(type);
  if (!offered.length) return null;
  return (
    <Row gutter={12}>
      <Col span={12}>
        <Form.Item
          name="validator"
          label="校验规则"
          tooltip="保存记录时浏览器和服务器按同一规则校验，提示中写明字段名称"
        >
          <Select
            allowClear
            placeholder="无"
            options={offered.map((v) => ({ value: v, label: FIELD_VALIDATORS[v].label }))}
            data-testid="field-validator"
            aria-label="校验规则"
          />
        </Form.Item>
      </Col>
    </Row>
  );
}

export interface FieldDrawerProps {
  open: boolean;
  /** the field edited, or null to add one */
  editing: { index: number; def: FieldDef } | null;
  /** the whole list as it is now (relations, duplicates) */
  defs: readonly FieldDef[];
  /** the stored list: saved fields keep their code and type */
  saved: readonly FieldDef[];
  /** whether each field is a filter group now */
  filterOf: (code: string) => boolean;
  /** the list chooses its filter groups (a new field is then none); otherwise a new one is, by default */
  explicitFilter: boolean;
  /** problems the last save or check found on this field (path → message) */
  problems?: Record<string, string>;
  gnCoding: string;
  systemCoding: string | null;
  onOk: (def: FieldDef, filterOn: boolean | null) => void;
  onClose: () => void;
}

function SourceNodeSelect({
  value,
  onChange,
  defaultSystem,
}: {
  value?: string | null;
  onChange?: (v: string | null) => void;
  defaultSystem: string | null;
}) {
  const preview = useQuery({ ...nodePreviewQuery(value ?? ''), enabled: !!value });
  const [system, setSystem] = useState<string | null>(null);
  const systemCoding = system ?? preview.data?.node.systemCoding ?? defaultSystem;
  return (
    <NodeSelector
      systemCoding={systemCoding}
      gnCoding={value ?? null}
      testId="source-node"
      onChange={(next) => {
        setSystem(next.systemCoding);
        onChange?.(next.gnCoding);
      }}
    />
  );
}

function PullDownSource({
  form,
  fields,
  gnCoding,
  systemCoding,
}: {
  form: FormInstance<FieldForm>;
  fields: readonly FieldDef[];
  gnCoding: string;
  systemCoding: string | null;
}) {
  const kind = (Form.useWatch('sourceKind', form) as SourceKind | undefined) ?? 'node';
  const node = Form.useWatch('sourceNode', form) as string | null | undefined;
  const name = Form.useWatch('sourceName', form) as PullDownSourceName | undefined;
  const parents = (Form.useWatch('parentNode', form) as string[] | undefined) ?? [];
  const own = node === gnCoding;
  const other = useQuery({ ...sourceFieldsQuery(node ?? ''), enabled: kind === 'node' && !!node && !own });
  const offered: { value: string; label: string }[] =
    kind === 'name'
      ? (name ? (PULL_DOWN_SOURCES[name]?.fields ?? []) : []).map((f) => ({
          value: f,
          label: `${SOURCE_FIELD_LABELS[f] ?? f}（${f}）`,
        }))
      : ((own ? fields : other.data?.fields) ?? []).map((f) => ({ value: f.code, label: `${f.name}（${f.code}）` }));
  const loading = kind === 'node' && !own && other.isFetching;
  const fieldSelect = (testId: string, label: string) => (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={kind === 'node' && !node ? '请先选择节点' : `请选择${label}`}
      options={offered}
      loading={loading}
      notFoundContent={other.isError ? '该节点尚未配置字段' : '暂无数据'}
      data-testid={testId}
      aria-label={label}
    />
  );
  return (
    <>
      <Form.Item name="sourceKind" label="数据来自">
        <Radio.Group
          options={[
            { value: 'node', label: '其他节点的记录（已通过审核）' },
            { value: 'name', label: '内置数据源' },
          ]}
          onChange={() => form.setFieldsValue({ labelField: undefined, valueField: undefined, parents: {} })}
          data-testid="source-kind"
        />
      </Form.Item>
      {kind === 'node' ? (
        <Form.Item name="sourceNode" label="节点" rules={[{ required: true, message: '请选择下拉数据源节点' }]}>
          <SourceNodeSelect defaultSystem={systemCoding} />
        </Form.Item>
      ) : (
        <Form.Item name="sourceName" label="数据源" rules={[{ required: true, message: '请选择内置数据源' }]}>
          <Select
            placeholder="请选择内置数据源"
            options={Object.entries(PULL_DOWN_SOURCES).map(([k, s]) => ({ value: k, label: `${s.label}（${k}）` }))}
            data-testid="source-name"
            aria-label="内置数据源"
          />
        </Form.Item>
      )}
      <Row gutter={12}>
        <Col span={12}>
          <Form.Item name="labelField" label="显示字段" rules={[{ required: true, message: '请选择显示字段' }]}>
            {fieldSelect('source-label-field', '显示字段')}
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="valueField" label="取值字段" rules={[{ required: true, message: '请选择取值字段' }]}>
            {fieldSelect('source-value-field', '取值字段')}
          </Form.Item>
        </Col>
      </Row>
      {parents.length ? (
        <Form.Item label="按上级筛选" extra="上级字段有值时，只列出数据源中该字段等于上级值的记录">
          {parents.map((p) => (
            <Space key={p} style={{ display: 'flex', marginBottom: 4 }}>
              <Typography.Text style={{ width: 160, display: 'inline-block' }}>
                {fields.find((f) => f.code === p)?.name ?? p}（{p}）=
              </Typography.Text>
              <Form.Item name={['parents', p]} noStyle>
                <Select
                  allowClear
                  placeholder="不按该上级筛选"
                  options={offered}
                  style={{ width: 240 }}
                  data-testid={`source-parent-${p}`}
                  aria-label={`上级 ${p} 对应的数据源字段`}
                />
              </Form.Item>
            </Space>
          ))}
        </Form.Item>
      ) : null}
    </>
  );
}

export function FieldDrawer({
  open,
  editing,
  defs,
  saved,
  filterOf,
  explicitFilter,
  problems,
  gnCoding,
  systemCoding,
  onOk,
  onClose,
}: FieldDrawerProps) {
  const [form] = Form.useForm<FieldForm>();
  const [rest, setRest] = useState<string[]>([]);
  const base = editing?.def ?? blankField();
  const savedDef = editing ? savedOf(saved, editing.def.code) : undefined;
  const locked = !!savedDef && editing?.def.code === savedDef.code;
  const type = (Form.useWatch('type', form) as FieldType | undefined) ?? base.type;
  const sourceType = (Form.useWatch('sourceType', form) as OptionSourceType | undefined) ?? optionSourceOf(base);
  const list = (Form.useWatch('list', form) as FieldOption[] | undefined) ?? [];
  const dics = useQuery({ ...dictionaryCodesQuery, enabled: open && sourceType === OPTION_SOURCES.dic });
  const others = defs.filter((_, i) => i !== editing?.index);
  const relationOptions = others
    .filter((f) => f.code)
    .map((f) => ({ value: f.code, label: `${f.name || f.code}（${f.code}）` }));

  // fill the form when the drawer opens for a field; show what the last check found on it
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the drawer opens or changes field
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(toForm(base, editing ? filterOf(editing.def.code) : !explicitFilter));
    setRest([]);
    if (problems && Object.keys(problems).length) showProblems(problems);
  }, [open, editing?.index, editing?.def]);

  const showProblems = (found: Record<string, string>) => {
    const onForm: { name: keyof FieldForm; errors: string[] }[] = [];
    const elsewhere: string[] = [];
    for (const [path, message] of Object.entries(found)) {
      const name = formNameOf(path);
      if (name) onForm.push({ name, errors: [message] });
      else elsewhere.push(`${path}：${message}`);
    }
    form.setFields(onForm);
    setRest(elsewhere);
  };

  const listProblems = useMemo(() => {
    const out: Record<string, string> = {};
    for (const [path, message] of Object.entries(problems ?? {})) {
      if (path.startsWith('options.list.')) out[path.slice('options.list.'.length)] = message;
    }
    return out;
  }, [problems]);

  const submit = async () => {
    let v: FieldForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const values = { ...form.getFieldsValue(true), ...v } as FieldForm;
    const def = fromForm(values, base);
    // the contracts' rules on the whole list with this field in place
    const index = editing?.index ?? defs.length;
    const next = [...defs];
    next[index] = def;
    const found: Record<string, string> = {};
    for (const [key, message] of Object.entries(fieldListProblems(next))) {
      const m = /^(\d+)\.(.+)$/.exec(key);
      if (m && Number(m[1]) === index) found[m[2]!] = message;
    }
    const prior = savedOf(saved, def.code);
    if (prior && prior.type !== def.type) {
      found.type = `字段编码 ${def.code} 已保存为「${typeLabel(prior.type)}」，类型不能修改；请换一个编码`;
    }
    if (Object.keys(found).length) {
      showProblems(found);
      return;
    }
    onOk(def, isFilterType(def.type) ? !!values.filter : null);
  };

  const text = isTextType(type);
  const date = isDateType(type);
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={760}
      title={editing ? `编辑字段：${editing.def.name || editing.def.code}` : '新增字段'}
      destroyOnHidden
      data-testid="field-drawer"
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose} data-testid="field-cancel">
            取消
          </Button>
          <Button type="primary" onClick={submit} data-testid="field-ok">
            确定
          </Button>
        </Space>
      }
    >
      {rest.length ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title="字段配置有误"
          description={rest.map((l) => <div key={l}>{l}</div>)}
          data-testid="field-drawer-error"
        />
      ) : null}
      <Form<FieldForm>
        form={form}
        layout="vertical"
        requiredMark
        onFinish={submit}
        onValuesChange={(changed: Partial<FieldForm>) => {
          // a validator that does not fit the new type goes
          const v = form.getFieldValue('validator') as FieldValidator | null | undefined;
          if (changed.type && v && !validatorFits(v, changed.type)) form.setFieldValue('validator', null);
        }}
        data-testid="field-form"
        initialValues={toForm(base, false)}
      >
        <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
          基本信息
        </Divider>
        <Row gutter={12}>
          <Col span={8}>
            <Form.Item
              name="code"
              label={
                locked ? (
                  <Tooltip title={TYPE_LOCKED_TIP}>
                    <span>
                      字段编码 <LockOutlined />
                    </span>
                  </Tooltip>
                ) : (
                  '字段编码'
                )
              }
              extra={locked ? undefined : '小写字母开头，小写字母、数字、下划线，最长 63 位'}
              rules={[
                { required: true, message: '请输入字段编码' },
                {
                  validator: (_r, value: string) => {
                    const p = fieldCodeProblem((value ?? '').trim());
                    return p ? Promise.reject(new Error(p)) : Promise.resolve();
                  },
                },
              ]}
            >
              <Input placeholder="如 xmmc" maxLength={63} disabled={locked} data-testid="field-code" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              name="name"
              label="字段名称"
              rules={[
                { required: true, whitespace: true, message: '请输入字段名称' },
                { max: 50, message: '最多 50 个字符' },
              ]}
            >
              <Input placeholder="如 项目名称" maxLength={50} data-testid="field-name" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              name="type"
              label={
                locked ? (
                  <Tooltip title={TYPE_LOCKED_TIP}>
                    <span data-testid="type-locked">
                      字段类型 <LockOutlined />
                    </span>
                  </Tooltip>
                ) : (
                  '字段类型'
                )
              }
              rules={[{ required: true, message: '请选择字段类型' }]}
            >
              <Select
                disabled={locked}
                showSearch={{ optionFilterProp: 'label' }}
                popupMatchSelectWidth={false}
                options={FIELD_TYPE_GROUPS.map((g) => ({
                  label: g.label,
                  title: g.label,
                  options: g.types.map((t) => ({ value: t, label: `${FIELD_TYPE_LABELS[t]}（${t}）` })),
                }))}
                data-testid="field-type"
                aria-label="字段类型"
              />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12}>
          <Col span={6}>
            <Form.Item name="required" label="必填">
              <Select
                options={[
                  { value: 0, label: '否' },
                  { value: 1, label: '是（1）' },
                  { value: 2, label: '是（2）' },
                ]}
                data-testid="field-required"
                aria-label="必填"
              />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="col" label="栅格宽度" tooltip="每行 24 格；窗口宽于 1536px 时生效，默认 8（一行三列）">
              <InputNumber
                min={1}
                max={24}
                precision={0}
                placeholder="默认 8"
                style={{ width: '100%' }}
                data-testid="field-col"
                aria-label="栅格宽度"
              />
            </Form.Item>
          </Col>
          <Col span={4}>
            <Form.Item name="show" label="显示" valuePropName="checked">
              <Switch data-testid="field-show" aria-label="显示" />
            </Form.Item>
          </Col>
          <Col span={4}>
            <Form.Item name="readonly" label="只读" valuePropName="checked">
              <Switch data-testid="field-readonly" aria-label="只读" />
            </Form.Item>
          </Col>
          <Col span={4}>
            {isFilterType(type) ? (
              <Form.Item
                name="filter"
                label="筛选条件"
                valuePropName="checked"
                tooltip="作为列表筛选卡片的一组；勾选任一字段后，筛选卡片只显示勾选的字段"
              >
                <Switch data-testid="field-filter" aria-label="筛选条件" />
              </Form.Item>
            ) : null}
          </Col>
        </Row>
        <Form.Item name="tips" label="提示" tooltip="显示在字段名称旁的问号提示">
          <Input placeholder="选填" maxLength={500} data-testid="field-tips" />
        </Form.Item>

        {text ? (
          <>
            <Divider titlePlacement="start" plain>
              文本校验
            </Divider>
            <Row gutter={12}>
              <Col span={6}>
                <Form.Item name="length" label="最大长度">
                  <InputNumber
                    min={1}
                    max={100000}
                    precision={0}
                    placeholder="不限"
                    style={{ width: '100%' }}
                    data-testid="field-length"
                    aria-label="最大长度"
                  />
                </Form.Item>
              </Col>
              <Col span={18}>
                <Form.Item name="regex" label="正则表达式" tooltip="如 ^1[3-9]\d{9}$，或 /…/i 形式">
                  <Input placeholder="选填" maxLength={500} data-testid="field-regex" />
                </Form.Item>
              </Col>
            </Row>
            <Row gutter={12}>
              <Col span={18}>
                <Form.Item name="prompt" label="格式提示语" tooltip="不符合正则时显示；默认「{名称}格式不正确」">
                  <Input placeholder="如 请输入11位手机号码" maxLength={200} data-testid="field-prompt" />
                </Form.Item>
              </Col>
              <Col span={6}>
                <Form.Item name="showPrompt" label="常显提示语" valuePropName="checked">
                  <Switch data-testid="field-show-prompt" aria-label="常显提示语" />
                </Form.Item>
              </Col>
            </Row>
            <ValidatorItem type={type} />
          </>
        ) : null}

        {date ? (
          <>
            <Divider titlePlacement="start" plain>
              日期
            </Divider>
            <Row gutter={12}>
              {(['limitStartDate', 'limitEndDate'] as const).map((k) => (
                <Col span={9} key={k}>
                  <Form.Item
                    name={k}
                    label={k === 'limitStartDate' ? '最早日期' : '最晚日期'}
                    tooltip="YYYY-MM-DD、YYYY-MM-DD HH:mm，或 today（当天）"
                  >
                    <AutoComplete
                      options={[{ value: 'today', label: 'today（当天）' }]}
                      placeholder="不限"
                      data-testid={`field-${k}`}
                      aria-label={k === 'limitStartDate' ? '最早日期' : '最晚日期'}
                    />
                  </Form.Item>
                </Col>
              ))}
              {type === 'datetime' || type === 'daterange' ? (
                <Col span={6}>
                  <Form.Item name="step" label="时间间隔（分钟）">
                    <InputNumber
                      min={1}
                      max={1440}
                      precision={0}
                      placeholder="默认 15"
                      style={{ width: '100%' }}
                      data-testid="field-step"
                      aria-label="时间间隔"
                    />
                  </Form.Item>
                </Col>
              ) : null}
            </Row>
            <ValidatorItem type={type} />
          </>
        ) : null}

        <Divider titlePlacement="start" plain>
          关联
        </Divider>
        <Row gutter={12}>
          <Col span={9}>
            <Form.Item
              name="parentNode"
              label="上级字段"
              tooltip="开关（控制下级）的下级；日期不早于上级日期；依赖上级取值的下拉"
            >
              <Select
                mode="multiple"
                allowClear
                placeholder="无"
                options={relationOptions}
                data-testid="field-parents"
                aria-label="上级字段"
              />
            </Form.Item>
          </Col>
          <Col span={9}>
            <Form.Item name="childNode" label="下级字段">
              <Select
                mode="multiple"
                allowClear
                placeholder="无"
                options={relationOptions}
                data-testid="field-children"
                aria-label="下级字段"
              />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="groupNumber" label="分组编号" tooltip="含 _x 时，上级字段未填写前不查询选项">
              <Input placeholder="如 qy_x" maxLength={63} data-testid="field-group" />
            </Form.Item>
          </Col>
        </Row>

        {hasOptionEditor(type) ? (
          <>
            <Divider titlePlacement="start" plain>
              选项
            </Divider>
            <Form.Item name="sourceType" label="选项来源">
              <Radio.Group
                optionType="button"
                options={[
                  { value: OPTION_SOURCES.static, label: '固定选项' },
                  { value: OPTION_SOURCES.dic, label: '字典' },
                  { value: OPTION_SOURCES.pullDown, label: '其他节点 / 数据源' },
                  { value: OPTION_SOURCES.cert, label: '资质树' },
                ]}
                data-testid="field-source"
              />
            </Form.Item>
            {sourceType === OPTION_SOURCES.static ? (
              <Form.Item
                name="list"
                label={type === 'y_n_ent' ? '选项（不填时为 是 / 否）' : '选项'}
                rules={[
                  {
                    validator: (_r, value: FieldOption[] | undefined) =>
                      (value ?? []).length || type === 'y_n_ent' || type === 'select-edit'
                        ? Promise.resolve()
                        : Promise.reject(new Error('请至少添加一个选项')),
                  },
                ]}
              >
                <OptionListEditor
                  tree={isCascaderType(type) || type === 'multi-select'}
                  labelKey={base.options?.labelKey}
                  valueKey={base.options?.valueKey}
                  problems={listProblems}
                />
              </Form.Item>
            ) : null}
            {sourceType === OPTION_SOURCES.dic ? (
              <Form.Item
                name="titleCoding"
                label="字典"
                rules={[{ required: true, message: '请选择字典' }]}
                extra={dics.isError ? '字典列表加载失败，请刷新后重试' : undefined}
              >
                <Select
                  showSearch={{ optionFilterProp: 'label' }}
                  placeholder="请选择字典"
                  loading={dics.isPending}
                  options={(dics.data ?? []).map((d) => ({
                    value: d.code,
                    label: `${d.code}（${d.count} 项：${d.sample.join('、')}${d.count > d.sample.length ? '…' : ''}）`,
                  }))}
                  notFoundContent="暂无数据"
                  data-testid="field-dic"
                  aria-label="字典"
                />
              </Form.Item>
            ) : null}
            {sourceType === OPTION_SOURCES.pullDown ? (
              <PullDownSource form={form} fields={defs} gnCoding={gnCoding} systemCoding={systemCoding} />
            ) : null}
            {sourceType === OPTION_SOURCES.cert ? (
              <Alert
                type="info"
                showIcon
                title="选项为资质树（资质类别 → 资质 → 等级），运行时由服务器提供。"
                style={{ marginBottom: 12 }}
              />
            ) : null}
            {sourceType !== OPTION_SOURCES.static && list.length ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                保存后将不再使用原有的 {list.length} 个固定选项。
              </Typography.Text>
            ) : null}
          </>
        ) : null}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Drawer>
  );
}
