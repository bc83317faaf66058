import type { UniqueKey } from '@ks/contracts';

/**
 * The 唯一 column of the field editor: a field alone unique among all records, within each enterprise, or not. Keys
 * of several fields (declared through the API) are kept as they are; the column shows that a field is in one.
 */

export type UniqueMode = 'none' | 'all' | 'enterprise';

export const UNIQUE_MODE_LABELS: Record<UniqueMode, string> = {
  none: '否',
  all: '唯一',
  enterprise: '本企业内唯一',
};

const single = (k: UniqueKey, code: string) => k.fields.length === 1 && k.fields[0] === code;

/** How the field alone is unique (its single-field key), if at all. */
export function uniqueModeOf(keys: readonly UniqueKey[], code: string): UniqueMode {
  const k = keys.find((x) => single(x, code));
  return !k ? 'none' : k.withinEnterprise ? 'enterprise' : 'all';
}

/** The keys with the field's single-field key set to `mode` (in place of the one it had). */
export function withUniqueMode(keys: readonly UniqueKey[], code: string, mode: UniqueMode): UniqueKey[] {
  const at = keys.findIndex((x) => single(x, code));
  const rest = keys.filter((_, i) => i !== at);
  if (mode === 'none') return rest;
  const key: UniqueKey = { fields: [code], withinEnterprise: mode === 'enterprise' };
  if (at < 0) return [...rest, key];
  return [...rest.slice(0, at), key, ...rest.slice(at)];
}

/** Is the field in a key of several fields? */
export const inCompositeKey = (keys: readonly UniqueKey[], code: string) =>
  keys.some((k) => k.fields.length > 1 && k.fields.includes(code));

/** The keys without the field's single-field key (the field was deleted). */
export const withoutField = (keys: readonly UniqueKey[], code: string) => keys.filter((k) => !single(k, code));

/** Compares two key lists (unsaved changes). */
export const keysKey = (keys: readonly UniqueKey[]) =>
  JSON.stringify(keys.map((k) => [k.fields, !!k.withinEnterprise]));
