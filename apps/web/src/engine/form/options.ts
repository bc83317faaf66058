import {
  type CertCascadeRequest,
  type CertCascadeResult,
  Code,
  dependentQueryBlocked,
  type FieldDef,
  type FieldOption,
  type FieldValues,
  OPTION_SOURCES,
  type OptionSourceType,
  optionSourceOf,
  type PullDownRequest,
  type PullDownResult,
  paths,
  SESSION_END_CODES,
  SEX_OPTIONS,
} from '@ks/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type ApiError, isApiError, reportApiError, request } from '../../api/request';
import { parentValues } from './values';

/** An option as the antd widgets take it: label and value as text, read through the field's labelKey / valueKey. */
export interface UiOption {
  label: string;
  value: string;
  disabled?: boolean;
  children?: UiOption[];
  /** §3 Option.curInfo: for select-link, the values it fills into other fields */
  curInfo?: unknown;
}

/** §3 Option list → UiOption tree; labelKey / valueKey default to label / value. */
export function toUiOptions(
  list: readonly FieldOption[] | undefined,
  labelKey = 'label',
  valueKey = 'value',
): UiOption[] {
  const map = (items: readonly FieldOption[] | undefined): UiOption[] =>
    (items ?? []).map((o) => {
      const value = o[valueKey] ?? o.value ?? o[labelKey] ?? o.label;
      const label = o[labelKey] ?? o.label ?? value;
      const out: UiOption = { label: String(label ?? ''), value: String(value ?? '') };
      if (o.isDisabled === true) out.disabled = true;
      if (o.children?.length) out.children = map(o.children);
      if (o.curInfo !== undefined) out.curInfo = o.curInfo;
      return out;
    });
  return map(list);
}

/** A y_n_ent field without its own list: 是 '1' / 否 '0', as switches store them. */
export const YES_NO_OPTIONS: readonly UiOption[] = [
  { label: '是', value: '1' },
  { label: '否', value: '0' },
];
export const SEX_UI_OPTIONS: readonly UiOption[] = SEX_OPTIONS.map((s) => ({ label: s, value: s }));

/** The inline options of a field (`static` source), with the fixed lists of sex and y_n_ent. */
export function staticOptions(field: FieldDef): UiOption[] {
  if (field.type === 'sex') return [...SEX_UI_OPTIONS];
  const list = toUiOptions(field.options?.list, field.options?.labelKey, field.options?.valueKey);
  if (field.type === 'y_n_ent' && list.length === 0) return [...YES_NO_OPTIONS];
  return list;
}

/** The option at a value anywhere in the tree. */
export function findOption(options: readonly UiOption[], value: string): UiOption | null {
  for (const o of options) {
    if (o.value === value) return o;
    const hit = o.children ? findOption(o.children, value) : null;
    if (hit) return hit;
  }
  return null;
}

/** The labels along a cascader path (values not found stay as they are). */
export function pathLabels(options: readonly UiOption[], path: readonly string[]): string[] {
  let level: readonly UiOption[] | undefined = options;
  return path.map((v) => {
    const hit = level?.find((o) => o.value === v);
    level = hit?.children;
    return hit ? hit.label : v;
  });
}

/** The tree cut to `depth` levels (cascader-1/2/3). */
export function truncateDepth(options: readonly UiOption[], depth: number): UiOption[] {
  return options.map((o) => {
    const { children, ...rest } = o;
    return depth > 1 && children?.length ? { ...rest, children: truncateDepth(children, depth - 1) } : rest;
  });
}

// ── remote sources ──────────────────────────────────────────────────────────

export interface OptionContext {
  gnCoding: string;
  systemCoding: string;
}

type PathName = 'pullDown' | 'dicPullDown' | 'certCascade';
const SOURCE_PATHS: Record<Exclude<OptionSourceType, 'static'>, PathName> = {
  [OPTION_SOURCES.pullDown]: 'pullDown',
  [OPTION_SOURCES.dic]: 'dicPullDown',
  [OPTION_SOURCES.cert]: 'certCascade',
};

/** The request a field's options come from (spec §7 dropdowns), or null for inline (`static`) options. */
export function optionRequest(
  field: FieldDef,
  ctx: OptionContext,
  values: FieldValues,
  key?: string,
): { source: Exclude<OptionSourceType, 'static'>; url: string; body: PullDownRequest | CertCascadeRequest } | null {
  const source = optionSourceOf(field);
  if (source === OPTION_SOURCES.static) return null;
  const url = paths[SOURCE_PATHS[source]].path;
  const base = { displayCode: field.code, gnCoding: ctx.gnCoding, systemCoding: ctx.systemCoding };
  if (source === OPTION_SOURCES.cert) return { source, url, body: base };
  const body: PullDownRequest = { ...base };
  const k = key?.trim();
  if (k) body.key = k;
  const parents = parentValues(field, values);
  if (parents) body.whereStr = JSON.stringify(parents);
  return { source, url, body };
}

/** Failures the form shows in the widget; the ones that end the session still go through the usual handling. */
function reportSessionEnd(err: unknown): void {
  if (!isApiError(err)) return;
  if (SESSION_END_CODES.includes(err.code) || err.status === Code.UNAUTHORIZED || err.code === Code.UNAUTHORIZED) {
    reportApiError(err);
  }
}

export function remoteOptionsQuery(req: NonNullable<ReturnType<typeof optionRequest>>) {
  return queryOptions({
    queryKey: ['engine', 'options', req.url, req.body] as const,
    queryFn: async (): Promise<{ options: UiOption[] }> => {
      try {
        if (req.source === OPTION_SOURCES.cert) {
          const data = await request<CertCascadeResult>({ url: req.url, method: 'POST', data: req.body, silent: true });
          return { options: toUiOptions(Array.isArray(data) ? data : []) };
        }
        const data = await request<PullDownResult>({ url: req.url, method: 'POST', data: req.body, silent: true });
        return { options: toUiOptions(data?.list ?? [], data?.labelKey || undefined, data?.valueKey || undefined) };
      } catch (err) {
        reportSessionEnd(err);
        throw err;
      }
    },
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export interface FieldOptionsState {
  options: UiOption[];
  loading: boolean;
  /** the server's message when loading failed */
  error: string | null;
  /** §5: 请先输入或选择上级条件后查询！ while a `_x` dependent select has a parent without a value */
  blocked: string | null;
  retry: () => void;
}

/**
 * The options of an option field: inline, or from its source (common/pull-down, the dictionary, the qualification
 * tree) with the parents' values as whereStr and, for filter-select, the typed text as key. A dependent select whose
 * groupNumber has `_x` does not ask while a parent is empty (§5).
 */
export function useFieldOptions(
  field: FieldDef,
  ctx: OptionContext,
  values: FieldValues,
  key?: string,
): FieldOptionsState {
  const blocked = dependentQueryBlocked(field, values);
  const req = optionRequest(field, ctx, values, key);
  const query = useQuery({
    ...remoteOptionsQuery(
      req ?? { source: OPTION_SOURCES.pullDown, url: '', body: { displayCode: '', gnCoding: '', systemCoding: '' } },
    ),
    enabled: req !== null && !blocked,
  });
  const inline = useMemo(() => staticOptions(field), [field]);
  if (!req) return { options: blocked ? [] : inline, loading: false, error: null, blocked, retry: () => {} };
  const error = query.error ? (query.error as ApiError).message || '加载失败' : null;
  return {
    options: blocked ? [] : (query.data?.options ?? []),
    loading: !blocked && query.isFetching,
    error: blocked ? null : error,
    blocked,
    retry: () => void query.refetch(),
  };
}
