import {
  extensionOf,
  IMAGE_EXTENSIONS,
  RFC_AREAS,
  RFC_ENTERPRISE_FIELDS,
  RFC_MESSAGES,
  type RfcChangeRecord,
  type RfcChangeTypeNode,
  type RfcDataInput,
  type RfcField,
  type RfcFile,
  type RfcKind,
  rfcCreditProblems,
} from '@ks/contracts';
import type { AttachmentFile } from '../../components/upload/types';

/**
 * The change dialog's pure rules (spec §4, §5): the change type's path and kind, the before/after values and what is
 * sent, the checks made while the user types (a value the check refuses is cleared), and who may do what.
 */

/** The cascader's value (a path of codes) as the contract's changeTypeCode, and back. */
export const typeCodeOf = (path: readonly string[] | null | undefined): string => (path ?? []).join('/');
export const typePathOf = (code: string | null | undefined): string[] => (code ? code.split('/') : []);

/** The nodes along a changeTypeCode in the types tree (empty: not one of the tree's paths). */
export function typeNodesOf(tree: readonly RfcChangeTypeNode[], code: string | null | undefined): RfcChangeTypeNode[] {
  const out: RfcChangeTypeNode[] = [];
  let level: readonly RfcChangeTypeNode[] | undefined = tree;
  for (const value of typePathOf(code)) {
    const node: RfcChangeTypeNode | undefined = level?.find((n) => n.value === value);
    if (!node) return [];
    out.push(node);
    level = node.children;
  }
  return out;
}

/** The kind of a chosen type: its leaf's (null when the code is not a complete path of the tree). */
export function kindOf(tree: readonly RfcChangeTypeNode[], code: string | null | undefined): RfcKind | null {
  const nodes = typeNodesOf(tree, code);
  const leaf = nodes[nodes.length - 1];
  if (!leaf || leaf.children?.length) return null;
  return leaf.kind;
}

/** The labels of a chosen type joined by '/', as the record's changeType. */
export function typeLabelOf(tree: readonly RfcChangeTypeNode[], code: string | null | undefined): string | null {
  const nodes = typeNodesOf(tree, code);
  return nodes.length ? nodes.map((n) => n.label).join('/') : null;
}

/** The types the dialog offers: in contact-person mode (length 1) only contact types, otherwise all but them. */
export function typesForMode(tree: readonly RfcChangeTypeNode[], contactMode: boolean): RfcChangeTypeNode[] {
  const keep = (n: RfcChangeTypeNode): RfcChangeTypeNode | null => {
    if (n.children?.length) {
      const children = n.children.map(keep).filter((c): c is RfcChangeTypeNode => c !== null);
      return children.length ? { ...n, children } : null;
    }
    return (n.kind === 'contact') === contactMode ? n : null;
  };
  return tree.map(keep).filter((n): n is RfcChangeTypeNode => n !== null);
}

/** The change types show the before/after form (info), the dates only (time), or the contact selector (contact). */
export const formFieldsOf = (kind: RfcKind | null, fields: readonly RfcField[]): RfcField[] => {
  if (kind === 'info') return fields.filter((f) => f.type !== 'contact');
  if (kind === 'time') return fields.filter((f) => f.code === 'start_time' || f.code === 'end_time');
  if (kind === 'contact') return fields.filter((f) => f.type === 'contact');
  return [];
};

/** A value as the form holds it: dates and texts as strings, a number as a number, nothing as null. */
export type FormValue = string | number | null;

export function formValueOf(field: Pick<RfcField, 'type'>, raw: string | null | undefined): FormValue {
  if (raw === null || raw === undefined || raw === '') return null;
  if (field.type === 'number') {
    const n = Number(raw);
    return Number.isFinite(n) ? n : null;
  }
  return raw;
}

const rawOf = (v: FormValue | undefined): string | null =>
  v === null || v === undefined || v === '' ? null : typeof v === 'number' ? String(v) : v;

/**
 * What save sends of the before/after form: each field that may change whose new value differs from the current one
 * (the server reads the old value itself).
 */
export function dataListOf(
  fields: readonly RfcField[],
  current: Readonly<Record<string, string | null>>,
  values: Readonly<Record<string, FormValue>>,
): RfcDataInput[] {
  const out: RfcDataInput[] = [];
  for (const f of fields) {
    if (f.readonly) continue;
    const next = rawOf(values[f.code]);
    const before = current[f.code] ?? null;
    const same =
      f.type === 'number' && next !== null && before !== null ? Number(next) === Number(before) : next === before;
    if (!same) out.push({ changeField: f.code, newValue: next, dataType: f.type });
  }
  return out;
}

/** The highest score of the standard now chosen in the form (the field's own when the standard is not a field). */
export function highestOf(fields: readonly RfcField[], values: Readonly<Record<string, FormValue>>): number | null {
  const standard = fields.find((f) => f.code === 'standard');
  const chosen = standard?.options?.find((o) => o.value === values.standard);
  if (chosen?.highest !== undefined) return chosen.highest;
  const score = fields.find((f) => f.code === 'score');
  return score?.highest ?? null;
}

/** What the dialog checks as the user changes a field: the message and the field it clears, or null. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * §5 information changes, checked as a date or the score changes: an end before the start (the end is cleared), a
 * negative score or one above the standard's highest (the message names it; the shorter form on review) — the score
 * is cleared. Missing values are left to save.
 */
export function changedFieldProblem(
  changed: string,
  values: Readonly<Record<string, FormValue>>,
  highest: number | null,
  opts: { review?: boolean } = {},
): FieldProblem | null {
  const start = typeof values.start_time === 'string' ? values.start_time : null;
  const end = typeof values.end_time === 'string' ? values.end_time : null;
  const score = typeof values.score === 'number' ? values.score : null;
  const problems = rfcCreditProblems({ start_time: start, end_time: end, score }, highest, opts);
  if ((changed === 'start_time' || changed === 'end_time') && problems.end_time) {
    return { field: 'end_time', message: problems.end_time };
  }
  if ((changed === 'score' || changed === 'standard') && score !== null && problems.score) {
    return { field: 'score', message: problems.score };
  }
  return null;
}

/** The problems of the whole before/after form at save: every field's first (required fields, dates, score). */
export function formProblems(
  fields: readonly RfcField[],
  values: Readonly<Record<string, FormValue>>,
  highest: number | null,
): Record<string, string> {
  const out: Record<string, string> = {};
  const codes = new Set(fields.filter((f) => !f.readonly).map((f) => f.code));
  for (const f of fields) {
    if (f.readonly || !f.required) continue;
    if (rawOf(values[f.code]) === null) out[f.code] = RFC_MESSAGES.fieldRequired.replace('{name}', f.name);
  }
  const credit = codes.has('score') || codes.has('start_time') || codes.has('end_time');
  if (credit) {
    const problems = rfcCreditProblems(
      {
        start_time: typeof values.start_time === 'string' ? values.start_time : null,
        end_time: typeof values.end_time === 'string' ? values.end_time : null,
        score: typeof values.score === 'number' ? values.score : null,
      },
      highest,
    );
    for (const [k, m] of Object.entries(problems)) if (codes.has(k) && !out[k]) out[k] = m;
  }
  return out;
}

const PDF = new Set(['pdf']);
const IMAGES = new Set<string>(IMAGE_EXTENSIONS);

/** A stored file of a round as the uploader shows it. */
export function attachmentFileOf(f: RfcFile): AttachmentFile {
  const ext = extensionOf(f.fileName);
  return {
    fileId: f.fileId,
    fileName: f.fileName,
    fileSize: f.fileSize,
    url: f.url,
    preview: IMAGES.has(ext) ? 'image' : PDF.has(ext) ? 'pdf' : null,
    annexNo: f.code,
  };
}

/** The round the dialog opens on: the latest (the list is first round first). */
export const latestOf = (rounds: readonly RfcChangeRecord[]): RfcChangeRecord | null =>
  rounds[rounds.length - 1] ?? null;

/** A button of the round the server allows now (§6: operations decide every button). */
export const allows = (round: RfcChangeRecord | null, code: string): boolean =>
  Boolean(round?.operations.some((o) => o.code === code && o.show));

/** The name the server gives a button, or the fallback. */
export const opName = (round: RfcChangeRecord | null, code: string, fallback: string): string =>
  round?.operations.find((o) => o.code === code)?.name || fallback;

/** Antd Tag colours of the three change states. */
export const STATUS_COLORS: Record<string, string> = { '1': 'processing', '2': 'success', '-1': 'error' };

/**
 * An enterprise whose required information is still empty cannot upload (the company-info gate answers 418): its
 * information round, which completes it, needs no attachment and no annexes — as the server decides on save.
 */
export function attachmentsWaived(gnCoding: string, current: Readonly<Record<string, string | null>> | undefined) {
  return (
    gnCoding === RFC_AREAS.enterprise &&
    current !== undefined &&
    RFC_ENTERPRISE_FIELDS.some((k) => !(current[k] ?? '').trim())
  );
}
