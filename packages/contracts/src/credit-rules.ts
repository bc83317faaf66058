/**
 * Credit rules both sides run (spec §1 credit management, §3 credit standard, §5 information changes, DOMAIN.md
 * "Credit"): subjects, conduct kinds, record statuses, level thresholds, the grade arithmetic and the §5 messages.
 * Zod-free, so the web imports it without the schemas; the server checks the same rules again on every call.
 */
import { CREDIT_GRADE_FLOORS } from './portal-constants';

/** Whose credit a record or a grade is: an enterprise, or a person (a registered practitioner of an enterprise). */
export const CREDIT_SUBJECT_KINDS = ['enterprise', 'person'] as const;
export type CreditSubjectKind = (typeof CREDIT_SUBJECT_KINDS)[number];
export const CREDIT_SUBJECT_LABELS: Record<CreditSubjectKind, string> = { enterprise: '企业', person: '个人' };

/** Good conduct adds to the score, bad conduct takes from it. */
export const CREDIT_CONDUCTS = ['good', 'bad'] as const;
export type CreditConduct = (typeof CREDIT_CONDUCTS)[number];
export const CREDIT_CONDUCT_LABELS: Record<CreditConduct, string> = { good: '良好行为', bad: '不良行为' };

/** Who a standard item applies to. */
export const CREDIT_APPLIES_TO = ['enterprise', 'person', 'both'] as const;
export type CreditAppliesTo = (typeof CREDIT_APPLIES_TO)[number];

/**
 * draft → submitted → passed | rejected; rejected → (edit) → submitted; submitted → draft (the enterprise withdraws
 * it); passed → revoked (a reviewer revokes it, with a reason). Only passed records count in the grade.
 */
export const CREDIT_RECORD_STATUSES = ['draft', 'submitted', 'passed', 'rejected', 'revoked'] as const;
export type CreditRecordStatus = (typeof CREDIT_RECORD_STATUSES)[number];
export const CREDIT_RECORD_STATUS_LABELS: Record<CreditRecordStatus, string> = {
  draft: '草稿',
  submitted: '待审核',
  passed: '已通过',
  rejected: '已驳回',
  revoked: '已撤销',
};

/**
 * Where a record comes from: declared by the enterprise (with evidence files), retrieved from data the platform
 * holds (a decision published on the portal: the decision is the evidence), or imported from an earlier system.
 */
export const CREDIT_RECORD_SOURCES = ['declared', 'retrieved', 'imported'] as const;
export type CreditRecordSource = (typeof CREDIT_RECORD_SOURCES)[number];
export const CREDIT_RECORD_SOURCE_LABELS: Record<CreditRecordSource, string> = {
  declared: '企业申报',
  retrieved: '自动获取',
  imported: '历史导入',
};

/**
 * The menu node of credit records (信用记录): reviewers' to-dos are opened on it, evidence files are uploaded for it,
 * and holding its 审核 function makes a user a reviewer of credit records (administrators always are).
 */
export const CREDIT_NODE = 'XYGL_XYJL';

/** The base score every subject starts from (a setting; administrators change it with the level titles). */
export const CREDIT_DEFAULT_BASE_SCORE = 80;
/** Highest base score, highest level floor and highest standard score an administrator may set. */
export const CREDIT_SCORE_MAX = 1000;
/** Evidence files one record may carry. */
export const CREDIT_MAX_FILES = 20;
/** Longest validity of a standard item, in months. */
export const CREDIT_VALIDITY_MAX_MONTHS = 120;

export interface CreditLevel {
  /** the level's title, e.g. AAA */
  title: string;
  /** the lowest score of the level (inclusive) */
  minScore: number;
}

/** Default level thresholds: AAA ≥ 90, AA ≥ 80, A ≥ 70, B ≥ 60, C below (the portal's grades). */
export const CREDIT_DEFAULT_LEVELS: readonly CreditLevel[] = CREDIT_GRADE_FLOORS.map(([title, minScore]) => ({
  title,
  minScore,
}));
export const CREDIT_LEVEL_TITLE_MAX = 8;
export const CREDIT_LEVELS_MIN = 2;
export const CREDIT_LEVELS_MAX = 10;

/** §5 messages (information changes, review), verbatim in meaning; the server answers the same words. */
export const CREDIT_MESSAGES = {
  /** §5: the highest score named, and the user told to void the declaration and add another item */
  scoreAboveHighest: '分值不能超过该信用标准的最高分{highest}分，请作废本次申报后另行添加其他信用标准项！',
  /** §5: the shorter form, on review */
  scoreAboveHighestShort: '分值不能超过最高分{highest}分',
  scoreNegative: '分值不能为负数',
  scoreRequired: '请输入分值',
  scorePrecision: '分值最多保留两位小数',
  endBeforeStart: '结束时间不能早于开始时间',
  startRequired: '请选择开始时间',
  standardRequired: '请选择信用标准',
  attachmentRequired: '请上传附件！',
  tooManyFiles: `附件最多 ${CREDIT_MAX_FILES} 个`,
  validityExceeded: '有效期不能超过该信用标准规定的{months}个月（最晚至{date}）',
  /** §5: the form's failure message */
  formInvalid: '校验未通过，请检查页面输入',
  rejectNeedsSuggestion: '请填写审核建议',
  revokeNeedsReason: '请填写撤销原因',
  notSubmitted: '该记录不在待审核状态，不能审核',
  decidedAlready: '该记录已被其他审核人处理，请刷新后查看',
  notEditable: '只有草稿或已驳回的记录可以修改',
  notDeletable: '只有草稿或已驳回的记录可以删除',
  notSubmittable: '只有草稿或已驳回的记录可以提交',
  notRevocable: '只有待审核的记录可以撤回，已通过的记录只能由审核人员撤销',
  retrievedLocked: '自动获取的记录来自已公开的认定结果，不能修改、删除或撤回',
  stale: '记录已被修改，请刷新后重试',
  standardNotApplicable: '该信用标准不适用于{kind}',
  standardDisabled: '该信用标准已停用',
  noEnterprise: '当前账号未关联企业，不能办理信用记录',
  ownReview: '不能审核本企业的信用记录',
  levelsCount: `信用等级须有 ${CREDIT_LEVELS_MIN} 到 ${CREDIT_LEVELS_MAX} 个`,
  levelTitle: `等级名称须为 1 到 ${CREDIT_LEVEL_TITLE_MAX} 个字符`,
  levelTitleDuplicate: '等级名称不能重复：{title}',
  levelOrder: '等级须按分数线从高到低排列，且分数线不能重叠：{title}',
  levelLowest: '最低等级的分数线须为 0，使每个分数都有对应等级',
  levelScore: `分数线须在 0 到 ${CREDIT_SCORE_MAX} 之间，最多两位小数`,
  baseScore: `基础分须在 0 到 ${CREDIT_SCORE_MAX} 之间，最多两位小数`,
} as const;

/** Fills `{key}` placeholders of a credit message. */
export function creditMessage(template: string, vars: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (Object.hasOwn(vars, k) ? String(vars[k]) : m));
}

/** A score as the messages show it: 5, 2.5, 0.25. */
export const scoreText = (n: number) => String(Math.round(n * 100) / 100);

const twoDecimals = (n: number) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;

/**
 * The last day of a validity of whole months from `start` (YYYY-MM-DD): the day before `start`, plus the months, the
 * day clamped to the month's length — 2026-01-15 + 24 → 2028-01-14, 2026-03-31 + 1 → 2026-04-30.
 */
export function validityEnd(start: string, months: number): string {
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  const before = new Date(Date.UTC(y, m - 1, d) - 86_400_000);
  const total = before.getUTCFullYear() * 12 + before.getUTCMonth() + months;
  const ty = Math.floor(total / 12);
  const tm = total % 12;
  const last = new Date(Date.UTC(ty, tm + 1, 0)).getUTCDate();
  return new Date(Date.UTC(ty, tm, Math.min(before.getUTCDate(), last))).toISOString().slice(0, 10);
}

export interface CreditRecordValues {
  score: number | null | undefined;
  startTime: string | null | undefined;
  endTime: string | null | undefined;
  /** evidence files attached (declared records need at least one) */
  fileCount?: number;
}

export interface CreditStandardFacts {
  highest: number;
  validityMonths: number;
}

/**
 * The first problem of each field of a record (§5): a score above the standard's highest (the message names it; the
 * shorter form on review), a negative score, an end before the start, a validity longer than the standard's, no
 * evidence. Empty when the record is valid. Dates are YYYY-MM-DD.
 */
export function creditRecordProblems(
  v: CreditRecordValues,
  standard: CreditStandardFacts | null,
  opts: { review?: boolean; needsFiles?: boolean } = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!standard) out.standardId = CREDIT_MESSAGES.standardRequired;
  if (v.score === null || v.score === undefined || Number.isNaN(v.score)) out.score = CREDIT_MESSAGES.scoreRequired;
  else if (v.score < 0) out.score = CREDIT_MESSAGES.scoreNegative;
  else if (!twoDecimals(v.score)) out.score = CREDIT_MESSAGES.scorePrecision;
  else if (standard && v.score > standard.highest) {
    out.score = creditMessage(
      opts.review ? CREDIT_MESSAGES.scoreAboveHighestShort : CREDIT_MESSAGES.scoreAboveHighest,
      { highest: scoreText(standard.highest) },
    );
  }
  if (!v.startTime) out.startTime = CREDIT_MESSAGES.startRequired;
  else if (v.endTime && v.endTime < v.startTime) out.endTime = CREDIT_MESSAGES.endBeforeStart;
  else if (v.endTime && standard) {
    const latest = validityEnd(v.startTime, standard.validityMonths);
    if (v.endTime > latest) {
      out.endTime = creditMessage(CREDIT_MESSAGES.validityExceeded, { months: standard.validityMonths, date: latest });
    }
  }
  if (opts.needsFiles && !v.fileCount) out.fileIds = CREDIT_MESSAGES.attachmentRequired;
  return out;
}

/**
 * Why a list of level thresholds cannot be used, or null: 2–10 levels, titles 1–8 characters and unique, floors with
 * at most two decimals in [0, 1000], strictly decreasing in the given order (ordered, non-overlapping), the last 0
 * (every score has a level).
 */
export function creditLevelsProblem(levels: readonly CreditLevel[]): string | null {
  if (levels.length < CREDIT_LEVELS_MIN || levels.length > CREDIT_LEVELS_MAX) return CREDIT_MESSAGES.levelsCount;
  const seen = new Set<string>();
  for (const [i, l] of levels.entries()) {
    const title = l.title.trim();
    if (!title || title.length > CREDIT_LEVEL_TITLE_MAX || title !== l.title) return CREDIT_MESSAGES.levelTitle;
    if (seen.has(title)) return creditMessage(CREDIT_MESSAGES.levelTitleDuplicate, { title });
    seen.add(title);
    if (!Number.isFinite(l.minScore) || l.minScore < 0 || l.minScore > CREDIT_SCORE_MAX || !twoDecimals(l.minScore))
      return CREDIT_MESSAGES.levelScore;
    const prev = levels[i - 1];
    if (prev && !(l.minScore < prev.minScore)) return creditMessage(CREDIT_MESSAGES.levelOrder, { title });
  }
  if (levels[levels.length - 1]!.minScore !== 0) return CREDIT_MESSAGES.levelLowest;
  return null;
}

/** The level of a score: the first level (highest floor first) whose floor the score reaches. */
export function creditLevelOf(score: number, levels: readonly CreditLevel[]): string {
  const sorted = [...levels].sort((a, b) => b.minScore - a.minScore);
  return (sorted.find((l) => score >= l.minScore) ?? sorted[sorted.length - 1])?.title ?? '';
}

export interface GradeRecord {
  conduct: CreditConduct;
  score: number;
  /** the standard's highest score: a record counts at most this much */
  highest: number;
  startTime: string;
  endTime: string;
  status: CreditRecordStatus;
}

/**
 * The grade arithmetic (DOMAIN.md "Credit"): base score plus the valid passed good-conduct records minus the valid
 * passed bad-conduct records, each capped by its standard's highest score; a record counts on the days
 * [startTime, endTime] (`today`, YYYY-MM-DD). The score is never below 0. `validUntil` is the last day this result
 * holds: the earliest end of a counted record, or the day before a passed record starts to count (null: no change
 * ahead). The server computes the same in SQL (modules/credit/grade.service.ts); a test holds the two together.
 */
export function computeGrade(
  base: number,
  records: readonly GradeRecord[],
  today: string,
  levels: readonly CreditLevel[],
) {
  let good = 0;
  let bad = 0;
  let counted = 0;
  let validUntil: string | null = null;
  const earlier = (d: string) => {
    if (validUntil === null || d < validUntil) validUntil = d;
  };
  for (const r of records) {
    if (r.status !== 'passed') continue;
    if (r.startTime > today) {
      const [y, m, d] = r.startTime.split('-').map(Number) as [number, number, number];
      earlier(new Date(Date.UTC(y, m - 1, d) - 86_400_000).toISOString().slice(0, 10));
      continue;
    }
    if (r.endTime < today) continue;
    const points = Math.min(r.score, r.highest);
    if (r.conduct === 'good') good += points;
    else bad += points;
    counted++;
    earlier(r.endTime);
  }
  const round = (n: number) => Math.round(n * 100) / 100;
  const score = Math.max(0, round(base + good - bad));
  return { good: round(good), bad: round(bad), counted, score, level: creditLevelOf(score, levels), validUntil };
}
