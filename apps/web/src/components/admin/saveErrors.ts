import type { FormInstance } from 'antd';
import { isApiError, reportApiError } from '../../api/request';

/** A form field's name path: "columns.2.code" is ['columns', 2, 'code']. */
export type NamePath = (string | number)[];

/** "columns.2.code" → ['columns', 2, 'code'], the name path of the form field. */
export function fieldPath(key: string): NamePath {
  return key.split('.').map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg));
}

export interface ServerFieldError {
  name: NamePath;
  errors: string[];
}

/** data.fieldErrors of a failed call ({field: message} or {field: [messages]}), keyed by name path. */
export function fieldErrorsOf(err: unknown): ServerFieldError[] {
  if (!isApiError(err)) return [];
  const fe = (err.data as { fieldErrors?: Record<string, unknown> } | null)?.fieldErrors;
  if (!fe || typeof fe !== 'object') return [];
  return Object.entries(fe).map(([key, msgs]) => ({
    name: fieldPath(key),
    errors: Array.isArray(msgs) ? msgs.map(String) : [String(msgs)],
  }));
}

/** Which server field errors belong on the form: the top-level names it has, or a test of the whole path. */
export type FieldFilter = readonly string[] | ReadonlySet<string> | ((name: NamePath) => boolean);

function fieldTest(filter: FieldFilter): (name: NamePath) => boolean {
  if (typeof filter === 'function') return filter;
  const known = new Set<string>(filter);
  return (name) => known.has(String(name[0]));
}

/** Shown when a save fails without an answer from the server (a bug, or a failure before the request). */
export const SAVE_FAILED = '保存失败，请稍后重试';

/**
 * Shows the failure of a silent save. Field errors the form has a field for go onto those fields; a failure without
 * field errors is reported the usual way (the global prompt, which also handles an ended session). Answers the lines
 * for the form's SaveErrorAlert: the server's message, then any field errors the form has no field for.
 */
export function applySaveError(
  err: unknown,
  form?: FormInstance | null,
  fields: FieldFilter = [],
  /** the form's name for a server path (e.g. drop the `cardStyle.` prefix of the body) */
  mapName: (name: NamePath) => NamePath = (name) => name,
): string[] {
  if (!isApiError(err)) return [SAVE_FAILED];
  const found = fieldErrorsOf(err).map((f) => ({ ...f, name: mapName(f.name) }));
  if (found.length === 0) {
    reportApiError(err);
    return [err.message];
  }
  const isField = fieldTest(fields);
  const onForm = form ? found.filter((f) => isField(f.name)) : [];
  if (form && onForm.length) form.setFields(onForm as Parameters<FormInstance['setFields']>[0]);
  const rest = found.filter((f) => !onForm.includes(f)).map((f) => `${f.name.join('.')}：${f.errors.join('；')}`);
  return [err.message, ...rest];
}
