import {
  CASCADER_JOIN,
  codeList,
  dependentQueryBlocked,
  type FieldDef,
  type FieldOption,
  filterCardFields,
  fmt,
  isCascaderType,
  isEmpty,
  isMultiValueType,
  isOptionType,
  MESSAGES,
  MULTI_JOIN,
  OPTION_SOURCES,
  type OptionSource,
  optionSourceOf,
  PULL_DOWN_SOURCES,
  type PullDownResult,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import { badRequest, conflict, validationFailed } from '../../platform/errors';
import { type Caller, requireNode, roleCodesOf } from '../../platform/permissions';
import { catalogOf, fieldsOf } from './node-fields';
import {
  type DicItem,
  dictionaryItems,
  dictionarySummaries,
  enterpriseRow,
  existingDictionaries,
  type OptionSourceQuery,
  optionRows,
} from './options.repo';
import { supervisesNode } from './record-access';
import { scopeSql } from './records.repo';
import { nodeFieldsOrNull, nodeForEngine } from './schema.repo';
import { columnOf, parseWhereStr, tableOf } from './sqlsafe';

/**
 * Where option fields get their options (OPTION_SOURCES in contracts): the inline list, a dictionary (`dic`, the
 * field's titleCoding), the qualification tree (`cert`), or a pull-down source (`pull-down`: the approved records of
 * another node, or a server-known source such as the enterprises). The same code answers the dropdown endpoints,
 * checks a developer's field list, checks record values on save and turns values into labels for export.
 */

/** The dictionary of the qualification (资质) tree served by common/cert-cascade. */
export const QUALIFICATION_DICTIONARY = 'QUALIFICATION';
/** The most options one pull-down answer carries; typing a key narrows it. */
export const PULL_DOWN_LIMIT = 100;

/** The caller of the option endpoints: permissions plus the enterprise that scopes records. */
export interface OptionCaller extends Caller {
  enterpriseId: string | null;
}

// ── dictionaries ────────────────────────────────────────────────────────────

/** Items as a tree from `root` (an item's children are the items whose parent is its value). */
function treeOf(items: DicItem[], root = ''): FieldOption[] {
  const byParent = new Map<string, DicItem[]>();
  for (const it of items) {
    const list = byParent.get(it.parent) ?? [];
    list.push(it);
    byParent.set(it.parent, list);
  }
  const build = (parent: string, seen: Set<string>): FieldOption[] =>
    (byParent.get(parent) ?? []).map((it) => {
      const o: FieldOption = { label: it.label, value: it.value };
      // a value met again on its own path would loop: stop there
      if (!seen.has(it.value) && byParent.has(it.value)) o.children = build(it.value, new Set([...seen, it.value]));
      return o;
    });
  return build(root, new Set(root ? [root] : []));
}

/** The tree pruned to the options whose label contains `key`, with their ancestors (and a hit's whole subtree). */
function filterTree(list: FieldOption[], key: string): FieldOption[] {
  const out: FieldOption[] = [];
  for (const o of list) {
    if (String(o.label ?? '').includes(key)) out.push(o);
    else if (o.children) {
      const kids = filterTree(o.children, key);
      if (kids.length) out.push({ ...o, children: kids });
    }
  }
  return out;
}

/** Every dictionary with enabled items: its code, item count and first top-level labels (the field editor's list). */
export const dictionaryCodes = (db: Db) => dictionarySummaries(db);

export async function dictionaryTree(db: Db, code: string, root = ''): Promise<FieldOption[]> {
  return treeOf(await dictionaryItems(db, code), root);
}

// ── the field asked about ───────────────────────────────────────────────────

interface FieldRequest {
  displayCode: string;
  gnCoding: string;
  systemCoding: string;
}

/** The node (the caller must be allowed to see it) and its field `displayCode`, whose source must be `type`. */
async function optionField(db: Db, c: Caller, body: FieldRequest, type: string) {
  const ref = await requireNode(db, c, body.gnCoding);
  if (body.systemCoding && body.systemCoding !== ref.systemCoding) {
    throw validationFailed({ systemCoding: ['系统编码与节点不符'] });
  }
  const node = await nodeForEngine(db, body.gnCoding);
  const fields = fieldsOf(node);
  const field = fields.find((f) => f.code === body.displayCode);
  if (!field) throw validationFailed({ displayCode: [`节点没有字段：${body.displayCode.slice(0, 63)}`] });
  if (optionSourceOf(field) !== type) {
    throw validationFailed({ displayCode: [`字段「${field.name}」的选项不来自${SOURCE_NAMES[type] ?? type}`] });
  }
  return { node, fields, field };
}

const SOURCE_NAMES: Record<string, string> = {
  [OPTION_SOURCES.pullDown]: '下拉数据源',
  [OPTION_SOURCES.dic]: '字典',
  [OPTION_SOURCES.cert]: '资质树',
};

/** The items of a parent's value: a cascader path's steps, a multi-value's items, else the value itself. */
function valueItems(parent: FieldDef | undefined, raw: string): string[] {
  const s = raw.trim();
  if (!s) return [];
  if (parent && isCascaderType(parent.type)) {
    return s
      .split(/[;/]/)
      .map((x) => x.trim())
      .filter(Boolean);
  }
  if (parent && isMultiValueType(parent.type)) {
    return s
      .split(MULTI_JOIN)
      .map((x) => x.trim())
      .filter(Boolean);
  }
  return [s];
}

/**
 * whereStr of a dependent select: JSON conditions parsed against the node's fields (unknown fields, operators or
 * values are a 400, never SQL), each on a parent of the field (its parentNode) with `eq` or `in`. A `_x` field
 * (groupNumber) needs every parent: otherwise 请先输入或选择上级条件后查询！.
 */
function parentValues(field: FieldDef, fields: FieldDef[], whereStr: string | undefined): Map<string, string[]> {
  const conditions = parseWhereStr(whereStr, catalogOf(fields));
  const parents = codeList(field.parentNode);
  const out = new Map<string, string[]>();
  for (const cond of conditions) {
    if (!parents.includes(cond.field)) throw badRequest(`查询条件 ${cond.field} 不是字段「${field.name}」的上级字段`);
    if (cond.op !== 'eq' && cond.op !== 'in') throw badRequest(`上级字段 ${cond.field} 只能按等于查询`);
    const parent = fields.find((f) => f.code === cond.field);
    const raw = cond.op === 'in' ? cond.value : [cond.value];
    const items = raw.flatMap((v) => valueItems(parent, String(v)));
    if (items.length) out.set(cond.field, [...(out.get(cond.field) ?? []), ...items]);
  }
  const values = Object.fromEntries([...out].map(([k, v]) => [k, v.join(MULTI_JOIN)]));
  const blocked = dependentQueryBlocked(field, values);
  if (blocked) throw badRequest(blocked);
  return out;
}

// ── pull-down sources ───────────────────────────────────────────────────────

/** Columns of the server-known sources, by the field names PULL_DOWN_SOURCES offers. */
const SOURCE_TABLES: Record<keyof typeof PULL_DOWN_SOURCES, { table: string; columns: Record<string, string> }> = {
  enterprises: {
    table: 'enterprises',
    columns: { name: 'name', creditCode: 'credit_code', region: 'region', enterpriseType: 'enterprise_type' },
  },
};

interface SourceQuery {
  /** source field → accepted values (a parent's value; for a cascader parent, any step of its path) */
  where: [string, string[]][];
  key?: string;
  /** only these values (checking or labelling stored values) */
  values?: string[];
  limit: number;
}

function misconfigured(field: FieldDef): never {
  throw conflict(`字段「${field.name}」的下拉数据源配置有误，请联系开发者`);
}

/**
 * Options of a pull-down source as {label, value}. A node source gives the approved (passed) records the caller may
 * see — the caller must be allowed to see that node too; the enterprises are public market entities.
 */
async function sourceOptions(
  db: Db,
  c: OptionCaller,
  field: FieldDef,
  src: OptionSource,
  q: SourceQuery,
): Promise<FieldOption[]> {
  let table: string;
  let colOf: (name: string) => string;
  let only: OptionSourceQuery['only'];
  if (src.name) {
    const t = SOURCE_TABLES[src.name];
    if (!t) misconfigured(field);
    colOf = (name) => t.columns[name] ?? misconfigured(field);
    table = t.table;
    // an ordinary user names no enterprise but their own (none without one)
    if (src.name === 'enterprises' && ownEnterpriseOnly(c)) only = { id: c.enterpriseId };
  } else if (src.gnCoding) {
    const ref = await requireNode(db, c, src.gnCoding);
    const n = await nodeForEngine(db, src.gnCoding);
    const codes = new Set(fieldsOf(n).map((f) => f.code));
    colOf = (name) => (codes.has(name) ? columnOf(name) : misconfigured(field));
    table = tableOf(n.gnCoding);
    const scope = { ...c, supervises: await supervisesNode(db, c, ref.id) };
    only = { passedIn: scopeSql(scope, ref.id, await roleCodesOf(db, c)) };
  } else {
    misconfigured(field);
  }
  const rows = await optionRows(db, {
    table,
    labelColumn: colOf(src.labelField),
    valueColumn: colOf(src.valueField),
    where: q.where.map(([name, values]) => [colOf(name), values] as [string, string[]]),
    values: q.values,
    key: q.key,
    only,
    limit: q.limit,
  });
  return rows.map((r) => ({ label: String(r.label ?? r.value), value: String(r.value) }));
}

/** source field → values, from the field's parents' values (a parent without a mapping is a 400). */
function sourceWhere(field: FieldDef, src: OptionSource, parents: Map<string, string[]>): [string, string[]][] {
  const out: [string, string[]][] = [];
  for (const [code, values] of parents) {
    const target = src.parents?.[code];
    if (!target) throw badRequest(`字段「${field.name}」的选项不按上级字段 ${code} 筛选`);
    out.push([target, values]);
  }
  return out;
}

export async function pullDown(
  db: Db,
  c: OptionCaller,
  body: FieldRequest & { key?: string; whereStr?: string },
): Promise<PullDownResult> {
  const { fields, field } = await optionField(db, c, body, OPTION_SOURCES.pullDown);
  const src = field.options?.source;
  if (!src) misconfigured(field);
  const parents = parentValues(field, fields, body.whereStr);
  const list = await sourceOptions(db, c, field, src, {
    where: sourceWhere(field, src, parents),
    key: body.key || undefined,
    limit: PULL_DOWN_LIMIT,
  });
  return { list, labelKey: 'label', valueKey: 'value' };
}

/**
 * A dictionary field's options: the dictionary named by its titleCoding, as a tree; with a parent's value
 * (whereStr) the items under that value; with a key the items whose label contains it.
 */
export async function dicPullDown(
  db: Db,
  c: Caller,
  body: FieldRequest & { key?: string; whereStr?: string },
): Promise<PullDownResult> {
  const { fields, field } = await optionField(db, c, body, OPTION_SOURCES.dic);
  const code = field.titleCoding?.trim();
  if (!code) throw conflict(`字段「${field.name}」未配置字典编码，请联系开发者`);
  const parents = parentValues(field, fields, body.whereStr);
  const items = await dictionaryItems(db, code);
  let list: FieldOption[];
  if (parents.size) {
    // the items under the parent's value (for a path, under its last step)
    const roots = [...parents.values()].map((v) => v[v.length - 1]!);
    list = roots.flatMap((r) => treeOf(items, r));
  } else {
    list = treeOf(items);
  }
  if (body.key) list = filterTree(list, body.key);
  return { list, labelKey: 'label', valueKey: 'value' };
}

export async function certCascade(db: Db, c: Caller, body: FieldRequest): Promise<FieldOption[]> {
  await optionField(db, c, body, OPTION_SOURCES.cert);
  return dictionaryTree(db, QUALIFICATION_DICTIONARY);
}

// ── developers' field lists ─────────────────────────────────────────────────

/**
 * Problems of the option sources of a field list a developer saves (`fields.<i>.…` → messages): a non-static source
 * only on option fields; `dic` names an existing dictionary; `pull-down` names an existing node (with those fields)
 * or a known source, and maps only parents of the field to fields of the source.
 */
export async function optionSourceProblems(
  db: Db,
  gnCoding: string,
  fields: readonly FieldDef[],
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const add = (key: string, message: string) => {
    errors[key] = [...(errors[key] ?? []), message];
  };
  const dics = await existingDictionaries(
    db,
    [
      ...new Set(
        fields.filter((f) => optionSourceOf(f) === OPTION_SOURCES.dic).map((f) => f.titleCoding?.trim() ?? ''),
      ),
    ].filter(Boolean),
  );
  for (const [i, f] of fields.entries()) {
    const type = optionSourceOf(f);
    if (type === OPTION_SOURCES.static) continue;
    if (!isOptionType(f.type) && f.type !== 'read-text') {
      add(`fields.${i}.options.type`, `字段「${f.name}」不是选择类字段，不能设置选项来源`);
      continue;
    }
    if (type === OPTION_SOURCES.dic) {
      const code = f.titleCoding?.trim();
      if (!code) add(`fields.${i}.titleCoding`, `请填写字段「${f.name}」的字典编码`);
      else if (!dics.has(code)) add(`fields.${i}.titleCoding`, `字典不存在：${code}`);
      continue;
    }
    if (type !== OPTION_SOURCES.pullDown) continue;
    const src = f.options?.source;
    if (!src) {
      add(`fields.${i}.options.source`, `请为字段「${f.name}」选择下拉数据源`);
      continue;
    }
    let offered: readonly string[] = [];
    if (src.name) {
      offered = PULL_DOWN_SOURCES[src.name]?.fields ?? [];
    } else if (src.gnCoding) {
      const srcFields =
        src.gnCoding === gnCoding ? fields : await nodeFieldsOrNull(db, src.gnCoding).then((x) => x ?? null);
      if (!srcFields) {
        add(`fields.${i}.options.source.gnCoding`, `下拉数据源节点不存在或尚未配置字段：${src.gnCoding}`);
        continue;
      }
      offered = srcFields.map((x) => x.code);
    }
    for (const key of ['labelField', 'valueField'] as const) {
      if (!offered.includes(src[key])) add(`fields.${i}.options.source.${key}`, `数据源没有字段：${src[key]}`);
    }
    const parents = codeList(f.parentNode);
    for (const [parent, target] of Object.entries(src.parents ?? {})) {
      if (!parents.includes(parent)) {
        add(`fields.${i}.options.source.parents`, `${parent} 不是字段「${f.name}」的上级字段`);
      }
      if (!offered.includes(target)) add(`fields.${i}.options.source.parents`, `数据源没有字段：${target}`);
    }
  }
  return errors;
}

// ── record values ───────────────────────────────────────────────────────────

/**
 * The fields with the options of their dictionary or the qualification tree filled in, so that the form rules'
 * option check (inOptions) applies to them as to inline lists.
 */
export async function withSourceOptions(db: Db, fields: FieldDef[]): Promise<FieldDef[]> {
  const trees = new Map<string, FieldOption[]>();
  const tree = async (code: string) => {
    let t = trees.get(code);
    if (!t) {
      t = await dictionaryTree(db, code);
      trees.set(code, t);
    }
    return t;
  };
  const out: FieldDef[] = [];
  for (const f of fields) {
    const type = optionSourceOf(f);
    const code =
      type === OPTION_SOURCES.dic
        ? f.titleCoding?.trim()
        : type === OPTION_SOURCES.cert
          ? QUALIFICATION_DICTIONARY
          : '';
    out.push(
      code ? { ...f, options: { ...f.options, list: await tree(code), labelKey: 'label', valueKey: 'value' } } : f,
    );
  }
  return out;
}

const storedItems = (f: FieldDef, v: unknown): string[] => {
  if (isEmpty(v)) return [];
  const s = Array.isArray(v) ? v.map(String).join(MULTI_JOIN) : String(v);
  return isMultiValueType(f.type) ? valueItems(f, s) : [s.trim()];
};

/**
 * Values of pull-down fields that their source does not offer (with the record's parent values applied), as
 * `values.<code>` → message.
 */
export async function pullDownProblems(
  db: Db,
  c: OptionCaller,
  fields: FieldDef[],
  values: Record<string, unknown>,
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  for (const f of fields) {
    const src = f.options?.source;
    if (optionSourceOf(f) !== OPTION_SOURCES.pullDown || !src) continue;
    const wanted = [...new Set(storedItems(f, values[f.code]))];
    if (!wanted.length) continue;
    const where: [string, string[]][] = [];
    for (const [parent, target] of Object.entries(src.parents ?? {})) {
      const pf = fields.find((x) => x.code === parent);
      const pv = values[parent];
      const items = isEmpty(pv)
        ? []
        : Array.isArray(pv)
          ? pv.flatMap((x) => valueItems(pf, String(x)))
          : valueItems(pf, String(pv));
      if (items.length) where.push([target, items]);
    }
    const found = await sourceOptions(db, c, f, src, { where, values: wanted, limit: wanted.length + 1 });
    const have = new Set(found.map((o) => String(o.value)));
    if (!wanted.every((w) => have.has(w))) errors[`values.${f.code}`] = [fmt(MESSAGES.option, { name: f.name })];
  }
  return errors;
}

/** Ordinary users (role U): every record they write is their enterprise's, and names no other enterprise. */
export const ownEnterpriseOnly = (c: Pick<OptionCaller, 'loginRoleType'>) => c.loginRoleType === 'U';

/**
 * An ordinary user's record names their own enterprise, whatever the request says: a single-valued field whose options
 * are the enterprises (PULL_DOWN_SOURCES.enterprises) is filled with the caller's enterprise when left empty, and one
 * naming another enterprise is refused (a field error, answered with the form's others). Every node, every form: the rule follows the option
 * source, not a field code. The options themselves list only the caller's enterprise (sourceOptions).
 */
export async function ownEnterpriseValues(
  db: Db,
  c: OptionCaller,
  fields: readonly FieldDef[],
  values: Record<string, unknown>,
): Promise<{ values: Record<string, unknown>; errors: Record<string, string[]> }> {
  if (!ownEnterpriseOnly(c)) return { values, errors: {} };
  const named = fields.filter(
    (f) =>
      optionSourceOf(f) === OPTION_SOURCES.pullDown &&
      f.options?.source?.name === 'enterprises' &&
      !isMultiValueType(f.type),
  );
  if (!named.length) return { values, errors: {} };
  const own = c.enterpriseId ? await enterpriseRow(db, c.enterpriseId) : undefined;
  const out = { ...values };
  const errors: Record<string, string[]> = {};
  for (const f of named) {
    const column = SOURCE_TABLES.enterprises.columns[f.options!.source!.valueField];
    const mine = own && column ? own[column] : null;
    const given = storedItems(f, out[f.code]);
    if (!given.length) {
      if (mine !== null && mine !== undefined) out[f.code] = String(mine);
      continue;
    }
    if (mine === null || mine === undefined || given.some((g) => g !== String(mine))) {
      errors[`values.${f.code}`] = [
        own ? `${f.name}只能填写本企业（${String(own.name)}）` : `${f.name}：您的账号未关联企业，不能填写企业`,
      ];
    }
  }
  return { values: out, errors };
}

// ── labels (export) ─────────────────────────────────────────────────────────

function labelIndex(list: FieldOption[], labelKey = 'label', valueKey = 'value'): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (items: FieldOption[]) => {
    for (const o of items) {
      const v = o[valueKey] ?? o.value;
      const l = o[labelKey] ?? o.label ?? v;
      if (v !== undefined && v !== null && !out.has(String(v))) out.set(String(v), String(l));
      if (o.children) walk(o.children);
    }
  };
  walk(list);
  return out;
}

/**
 * A function turning a stored value of each option field into its labels (cascader steps joined with `/`, multiple
 * values with `;`); pull-down labels are looked up for the values of each batch (`prepare`).
 */
export async function labellers(db: Db, c: OptionCaller, fields: FieldDef[]) {
  const resolved = await withSourceOptions(db, fields);
  const index = new Map<string, Map<string, string>>();
  for (const f of resolved) {
    if (f.options?.list?.length) index.set(f.code, labelIndex(f.options.list, f.options.labelKey, f.options.valueKey));
  }
  const pullDowns = fields.filter((f) => optionSourceOf(f) === OPTION_SOURCES.pullDown && f.options?.source);
  const label = (f: FieldDef, raw: unknown): unknown => {
    if (raw === null || raw === undefined || raw === '') return raw;
    if (f.type === 'switch' || f.type === 'switch-1' || f.type === 'switch-2' || f.type === 'y_n_ent') {
      const m = index.get(f.code);
      if (m) return m.get(String(raw)) ?? raw;
      return String(raw) === '1' ? '是' : String(raw) === '0' ? '否' : raw;
    }
    const m = index.get(f.code);
    if (!m) return raw;
    const s = String(raw);
    const one = (v: string) => m.get(v.trim()) ?? v.trim();
    if (f.type === 'cascaders') {
      return s
        .split(MULTI_JOIN)
        .map((p) => p.split(CASCADER_JOIN).map(one).join(CASCADER_JOIN))
        .join(MULTI_JOIN);
    }
    if (isCascaderType(f.type)) return s.split(CASCADER_JOIN).map(one).join(CASCADER_JOIN);
    if (isMultiValueType(f.type)) return s.split(MULTI_JOIN).map(one).join(MULTI_JOIN);
    return one(s);
  };
  /** Looks up the labels of the pull-down values among these rows' values. */
  const prepare = async (rows: Record<string, unknown>[]) => {
    for (const f of pullDowns) {
      const wanted = [...new Set(rows.flatMap((r) => storedItems(f, r[f.code])))];
      const m = index.get(f.code) ?? new Map<string, string>();
      const missing = wanted.filter((w) => !m.has(w));
      if (missing.length) {
        // a source the caller may not see leaves the stored values as they are
        const found = await sourceOptions(db, c, f, f.options!.source!, {
          where: [],
          values: missing,
          limit: missing.length + 1,
        }).catch(() => []);
        for (const o of found) m.set(String(o.value), String(o.label));
        for (const w of missing) if (!m.has(w)) m.set(w, w);
      }
      index.set(f.code, m);
    }
  };
  return { label, prepare };
}

// ── filter definitions (§3 Filter definition) ───────────────────────────────

const YES_NO: FieldOption[] = [
  { label: '是', value: '1' },
  { label: '否', value: '0' },
];

/** An option list as {label, value} (children kept), whatever its labelKey / valueKey. */
function plainOptions(list: FieldOption[], labelKey = 'label', valueKey = 'value'): FieldOption[] {
  return list.map((o) => {
    const value = o[valueKey] ?? o.value ?? o[labelKey] ?? o.label;
    const out: FieldOption = { label: String(o[labelKey] ?? o.label ?? value ?? ''), value: String(value ?? '') };
    if (o.children?.length) out.children = plainOptions(o.children, labelKey, valueKey);
    return out;
  });
}

async function groupOptions(db: Db, c: OptionCaller, f: FieldDef): Promise<FieldOption[]> {
  const type = optionSourceOf(f);
  if (f.type === 'sex') return ['男', '女'].map((s) => ({ label: s, value: s }));
  if (type === OPTION_SOURCES.dic && f.titleCoding) return dictionaryTree(db, f.titleCoding.trim());
  if (type === OPTION_SOURCES.cert) return dictionaryTree(db, QUALIFICATION_DICTIONARY);
  if (type === OPTION_SOURCES.pullDown && f.options?.source) {
    // a dependent select has no options of its own until its parents are chosen
    if (f.groupNumber?.includes('_x') || Object.keys(f.options.source.parents ?? {}).length) return [];
    return sourceOptions(db, c, f, f.options.source, { where: [], limit: PULL_DOWN_LIMIT }).catch(() => []);
  }
  if (f.options?.list?.length) return plainOptions(f.options.list, f.options.labelKey, f.options.valueKey);
  if (f.type === 'switch' || f.type === 'switch-1' || f.type === 'switch-2' || f.type === 'y_n_ent') return YES_NO;
  return [];
}

/**
 * The filter definition of a node: the filter card's groups (filterCardFields in contracts: the fields a developer
 * flagged `filter`, or by default every shown single-valued option field; groups without options are left out), or
 * with headerFilter the groups of the list's searchable shown columns (a text column has no options); displayCode
 * asks for that field's group alone.
 */
export async function filterFields(
  db: Db,
  c: OptionCaller,
  body: { gnCoding: string; systemCoding: string; displayCode?: string; headerFilter?: boolean },
): Promise<{
  displayCode: string;
  displayList: { name: string; code: string; type: string; dataList: FieldOption[] }[];
}> {
  const ref = await requireNode(db, c, body.gnCoding);
  if (body.systemCoding && body.systemCoding !== ref.systemCoding) {
    throw validationFailed({ systemCoding: ['系统编码与节点不符'] });
  }
  const n = await nodeForEngine(db, body.gnCoding);
  const fields = fieldsOf(n);
  let chosen: FieldDef[];
  if (body.displayCode) {
    const f = fields.find((x) => x.code === body.displayCode);
    if (!f) throw validationFailed({ displayCode: [`节点没有字段：${body.displayCode.slice(0, 63)}`] });
    chosen = [f];
  } else if (body.headerFilter) {
    const columns = Array.isArray(n.columns)
      ? (n.columns as { code: string; show?: boolean; isSearch?: boolean }[])
      : [];
    chosen = columns
      .filter((col) => col.isSearch && col.show !== false)
      .map((col) => fields.find((f) => f.code === col.code))
      .filter((f): f is FieldDef => !!f);
  } else {
    chosen = filterCardFields(fields);
  }
  const displayList = [];
  for (const f of chosen) {
    const dataList = await groupOptions(db, c, f);
    if (!body.displayCode && !body.headerFilter && !dataList.length) continue;
    displayList.push({ name: f.name, code: f.code, type: f.type, dataList });
  }
  return { displayCode: body.displayCode ?? n.gnCoding, displayList };
}
