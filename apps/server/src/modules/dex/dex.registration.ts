import {
  creditCodeProblem,
  DEX_ENT_TYPES,
  DEX_REG_FIELD_LABELS,
  DEX_REG_FIELDS,
  DEX_REG_STATUSES,
  DEX_REG_TYPES,
  type DexDiffItem,
  type DexRegField,
  isValidDate,
  REGION_DIVISION_CODES,
} from '@ks/contracts';

/**
 * One enterprise registration as the upstream sends it, checked field by field (issue 19, 监管审核). A record is taken
 * only when every field is present and right; otherwise it is refused with every reason, and keeps whatever fields were
 * right (so the refused row still shows a name and a code to whoever looks at it).
 */
export type RegValues = Record<DexRegField, string>;

export interface CheckedRecord {
  /** the upstream id, null when missing or unusable (the record cannot be stored then) */
  upstreamId: string | null;
  updatedAt: Date | null;
  /** every field, when all are right */
  values: RegValues | null;
  /** the fields that are right (all of them when `values` is set), texts as stored */
  partial: Partial<RegValues>;
  /** why it is refused (empty: taken) */
  reasons: string[];
  /** the record as received (an object; anything else wrapped) */
  raw: Record<string, unknown>;
}

/** GB/T 2260 → the platform's regions: 140000 is 省本级, a city's or its districts' codes (1401xx) the city. */
const REGION_OF_PREFIX = new Map(
  Object.entries(REGION_DIVISION_CODES).map(([name, code]) => [code === '140000' ? '140000' : code.slice(0, 4), name]),
);
export function regionOfCode(code: string): string | null {
  if (!/^\d{6}$/.test(code)) return null;
  if (code === '140000') return '省本级';
  return REGION_OF_PREFIX.get(code.slice(0, 4)) ?? null;
}

/** A decimal amount of yuan as stored (`numeric(16,2)`): at most 14 integer digits and 2 decimals, "1234.50". */
export function yuanOf(v: unknown): string | null {
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : typeof v === 'string' ? v.trim() : '';
  const m = /^(\d{1,14})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  return `${BigInt(m[1]!).toString()}.${(m[2] ?? '').padEnd(2, '0')}`;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

export function checkRecord(input: unknown, today: string): CheckedRecord {
  const raw: Record<string, unknown> =
    input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { value: input };
  const reasons: string[] = [];
  const partial: Partial<RegValues> = {};
  const id = text(raw.id);
  let upstreamId: string | null = null;
  if (!id) reasons.push('缺少上游编号');
  else if (id.length > 64 || !/^[A-Za-z0-9_.:-]+$/.test(id)) reasons.push('上游编号格式有误');
  else upstreamId = id;

  const need = (field: DexRegField, max: number, check?: (v: string) => string | null) => {
    const v = text(raw[field]);
    if (!v) return reasons.push(`缺少${DEX_REG_FIELD_LABELS[field]}`);
    if (v.length > max) return reasons.push(`${DEX_REG_FIELD_LABELS[field]}超过 ${max} 个字`);
    const problem = check?.(v);
    if (problem) return reasons.push(problem);
    partial[field] = v;
  };
  need('name', 200);
  need('creditCode', 18, (v) => {
    const p = creditCodeProblem(v);
    if (p === 'format') return `统一社会信用代码格式有误（${v}）：应为 18 位数字或大写字母`;
    if (p === 'checkDigit') return `统一社会信用代码校验位有误（${v}）`;
    return null;
  });
  need('legalPerson', 50);
  if (raw.registeredCapital === undefined || raw.registeredCapital === null || text(raw.registeredCapital) === '') {
    reasons.push('缺少注册资本');
  } else {
    const y = yuanOf(raw.registeredCapital);
    if (y === null) reasons.push(`注册资本有误（${text(raw.registeredCapital).slice(0, 30)}）`);
    else partial.registeredCapital = y;
  }
  const regionCode = text(raw.regionCode);
  if (!regionCode) reasons.push('缺少所在地区（regionCode）');
  else {
    const region = regionOfCode(regionCode);
    if (!region) reasons.push(`所在地区代码不是山西省的行政区划（${regionCode.slice(0, 12)}）`);
    else partial.region = region;
  }
  need('address', 200);
  need('establishedAt', 10, (v) =>
    !isValidDate(v) ? `成立日期有误（${v}）` : v > today ? `成立日期晚于今天（${v}）` : null,
  );
  need('entType', 40, (v) => ((DEX_ENT_TYPES as readonly string[]).includes(v) ? null : `主体类型无法识别（${v}）`));
  need('regType', 20, (v) => ((DEX_REG_TYPES as readonly string[]).includes(v) ? null : `登记类型无法识别（${v}）`));
  need('regStatus', 20, (v) =>
    (DEX_REG_STATUSES as readonly string[]).includes(v) ? null : `登记状态无法识别（${v}）`,
  );
  const at = text(raw.updatedAt);
  const updatedAt = at && /^\d{4}-\d{2}-\d{2}T/.test(at) && !Number.isNaN(Date.parse(at)) ? new Date(at) : null;
  if (!updatedAt) reasons.push(at ? `更新时间有误（${at.slice(0, 40)}）` : '缺少更新时间');

  const complete = DEX_REG_FIELDS.every((f) => partial[f] !== undefined);
  return {
    upstreamId,
    updatedAt,
    values: reasons.length === 0 && complete ? (partial as RegValues) : null,
    partial,
    reasons,
    raw,
  };
}

/** The fields whose texts differ, in the fields' order. */
export function diffOf(
  before: Partial<Record<string, string | null>>,
  after: Partial<Record<string, string | null>>,
  fields: readonly string[] = DEX_REG_FIELDS,
): DexDiffItem[] {
  const out: DexDiffItem[] = [];
  for (const f of fields) {
    const b = before[f] ?? null;
    const a = after[f] ?? null;
    if (b !== a) out.push({ field: f, before: b, after: a });
  }
  return out;
}

/** 「法定代表人：白俊峰 → 白晓燕；…」 for an operation-log row. */
export const diffText = (diff: DexDiffItem[]) =>
  diff
    .map(
      (d) =>
        `${DEX_REG_FIELD_LABELS[d.field as DexRegField] ?? d.field}：${d.before ?? '（空）'} → ${d.after ?? '（空）'}`,
    )
    .join('；');
