/**
 * Credit change rounds (spec §1 screen 1, §3 change record, §4 change status, §5 change save / information changes /
 * reject / submit): the status codes, the change areas, the operations and the §5 messages, and the pure validation
 * both the change dialog and the server run. Zod-free, so the web imports it without the schemas.
 */
import { CREDIT_MESSAGES, creditMessage, scoreText } from './credit-rules';

/** §4: '1' 正在变更 (open: being edited or waiting for review), '2' 变更通过, '-1' 变更驳回. */
export const RFC_STATUSES = ['1', '2', '-1'] as const;
export type RfcStatus = (typeof RFC_STATUSES)[number];
export const RFC_STATUS_LABELS: Record<RfcStatus, string> = { '1': '正在变更', '2': '变更通过', '-1': '变更驳回' };

/**
 * What a change type changes: `info` the business record's fields (the before/after form), `time` only its validity
 * window (start_time, end_time), `contact` the enterprise's contact person (the dialog's length-1 mode with the
 * contact selector), `other` nothing but what the reason and attachments say.
 */
export const RFC_KINDS = ['info', 'time', 'contact', 'other'] as const;
export type RfcKind = (typeof RFC_KINDS)[number];

/** The system the change rounds live in, and the engine node their review runs on (信用变更申请). */
export const RFC_SYSTEM = 'XYGL';
export const RFC_REVIEW_NODE = 'XYGL_BGSQ';

/**
 * The business records a change round may be opened on (the `gnCoding` of the calls; `businessId` is the record):
 * a passed credit record of an enterprise (信用记录), and an enterprise's own information (企业信息: its editable fields
 * and its contact person).
 */
export const RFC_AREAS = {
  creditRecord: 'XYGL_XYJL',
  enterprise: 'XYGL_QYXX',
} as const;
export type RfcArea = (typeof RFC_AREAS)[keyof typeof RFC_AREAS];
export const RFC_AREA_LABELS: Record<RfcArea, string> = { XYGL_XYJL: '信用记录', XYGL_QYXX: '企业信息' };

/** The dialog's tabs by default (spec §1 screen 1: default length 3; length 1 is the contact-person mode). */
export const RFC_DIALOG_LENGTH = 3;
export const RFC_CONTACT_LENGTH = 1;

/** Fields of a credit record a change may write (spec §3 information-change form). */
export const RFC_CREDIT_FIELDS = ['start_time', 'end_time', 'score', 'xx_grouping', 'standard', 'enclosure'] as const;
/** Fields of the enterprise's information a change may write, and the contact person. */
export const RFC_ENTERPRISE_FIELDS = [
  'legal_person',
  'region',
  'address',
  'registered_capital',
  'established_at',
] as const;
export const RFC_CONTACT_FIELD = 'contact';

/** `dataType` of the change data row that carries the attachments (§3: 附件; 信用评价 marks it on credit pages). */
export const RFC_ATTACHMENT_DATA_TYPE = '附件';

export const RFC_LOGBOOK_MAX = 500;
export const RFC_SUGGESTION_MAX = 500;
export const RFC_MAX_FILES = 20;

/** Operation codes of a change record (the buttons of the dialog, computed on the server; spec §6). */
export const RFC_OPERATIONS = {
  save: { name: '保存', color: '#1677ff' },
  edit: { name: '修改', color: '#1677ff' },
  submit: { name: '提交', color: '#52c41a' },
  pass: { name: '通过', color: '#52c41a' },
  reject: { name: '驳回', color: '#ff4d4f' },
  closed: { name: '关闭', color: '#8c8c8c' },
} as const;
export type RfcOperationCode = keyof typeof RFC_OPERATIONS;

/** §5 messages verbatim, and the server's refusals; the server answers the same words. */
export const RFC_MESSAGES = {
  typeRequired: '请选择变更类型！',
  reasonRequired: '请输入变更原因！',
  attachmentRequired: '请上传附件！',
  /** required annexes without a file, by name */
  annexRequired: '附件为必填项，请上传【{name}】附件！',
  saveFirst: '请先保存！',
  suggestionRequired: '请填写审核建议',
  endBeforeStart: CREDIT_MESSAGES.endBeforeStart,
  startRequired: CREDIT_MESSAGES.startRequired,
  scoreAboveHighest: CREDIT_MESSAGES.scoreAboveHighest,
  scoreAboveHighestShort: CREDIT_MESSAGES.scoreAboveHighestShort,
  scoreNegative: CREDIT_MESSAGES.scoreNegative,
  scoreRequired: CREDIT_MESSAGES.scoreRequired,
  scorePrecision: CREDIT_MESSAGES.scorePrecision,
  standardRequired: CREDIT_MESSAGES.standardRequired,
  /** §5: the form's failure message */
  formInvalid: CREDIT_MESSAGES.formInvalid,
  fieldRequired: '{name}必填',
  contactRequired: '请选择联系人',
  contactUnknown: '联系人不在本企业人员中',
  typeUnknown: '变更类型不在可选范围内',
  fieldNotChangeable: '该变更类型不能修改【{name}】',
  unchanged: '变更后的内容与原内容相同，请修改后再保存',
  reasonTooLong: `变更原因不能超过${RFC_LOGBOOK_MAX}个字符`,
  suggestionTooLong: `审核建议不能超过${RFC_SUGGESTION_MAX}个字符`,
  tooManyFiles: `附件最多 ${RFC_MAX_FILES} 个`,
  submitConfirm: '确定提交本轮变更吗？提交后将不能修改。',
  submitted: '已提交，等待审核',
  saved: '保存成功',
  passed: '变更通过，新的内容已生效',
  rejected: '变更已驳回',
  notFound: '变更记录不存在',
  businessNotFound: '业务记录不存在',
  areaUnknown: '该业务不支持变更',
  notChangeable: '只有审核通过的信用记录可以发起变更',
  openRoundExists: '该记录已有正在进行的变更，请在当前轮次中办理',
  alreadySubmitted: '本轮变更已提交，不能再修改',
  notOpen: '该变更不在正在变更状态，不能审核',
  notSubmitted: '本轮变更尚未提交，不能审核',
  decidedAlready: '该变更已被其他审核人处理，请刷新后查看',
  stale: '变更记录已被修改，请刷新后重试',
  noEnterprise: '当前账号未关联企业，不能发起变更',
  notReviewer: '没有审核该变更的权限',
  ownReview: '不能审核本企业的变更',
  directEditRefused: '企业信息的修改须通过信息变更办理，审核通过后生效',
} as const;

export const rfcMessage = creditMessage;

/** One required or optional annex of a change type (the fjList of change-fields). */
export interface RfcAnnexFacts {
  code: string;
  name: string;
  required: boolean;
}

/** What the change dialog sends on save, as the rules see it. */
export interface RfcSaveFacts {
  /** the cascader path joined by '/' (empty: none chosen) */
  changeTypeCode: string | null | undefined;
  /** the kind of the chosen type (null: the code is not one of the area's) */
  kind: RfcKind | null;
  logbook: string | null | undefined;
  /** files of the initiate-change card (at least one) */
  attachmentCount: number;
  /** the annexes of the chosen type, and the codes that have a file */
  annexes: readonly RfcAnnexFacts[];
  annexCodes: ReadonlySet<string> | readonly string[];
}

/**
 * The first problem of the initiate-change card (§5 change save), or null: change type, reason, at least one
 * attachment, then for information and time types every required annex by name.
 */
export function rfcSaveProblem(v: RfcSaveFacts): { field: string; message: string } | null {
  if (!v.changeTypeCode) return { field: 'changeTypeCode', message: RFC_MESSAGES.typeRequired };
  if (!v.kind) return { field: 'changeTypeCode', message: RFC_MESSAGES.typeUnknown };
  const reason = (v.logbook ?? '').trim();
  if (!reason) return { field: 'logbook', message: RFC_MESSAGES.reasonRequired };
  if (reason.length > RFC_LOGBOOK_MAX) return { field: 'logbook', message: RFC_MESSAGES.reasonTooLong };
  if (v.attachmentCount < 1) return { field: 'attachment', message: RFC_MESSAGES.attachmentRequired };
  if (v.kind === 'info' || v.kind === 'time') {
    const have = new Set(v.annexCodes);
    const missing = v.annexes.filter((a) => a.required && !have.has(a.code));
    if (missing.length) {
      return {
        field: 'fileList',
        message: rfcMessage(RFC_MESSAGES.annexRequired, { name: missing.map((a) => a.name).join('、') }),
      };
    }
  }
  return null;
}

/** The values of a credit record's change form (the new values; dates YYYY-MM-DD, the score a number). */
export interface RfcCreditValues {
  start_time?: string | null;
  end_time?: string | null;
  score?: number | null;
}

/**
 * §5 information changes on a credit record, each field's first problem: end not before start, score not negative,
 * score not above the standard's highest (the message names it; the shorter form when the reviewer edits). The dialog
 * clears the field the message is about.
 */
export function rfcCreditProblems(
  v: RfcCreditValues,
  highest: number | null,
  opts: { review?: boolean } = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!v.start_time) out.start_time = RFC_MESSAGES.startRequired;
  else if (v.end_time && v.end_time < v.start_time) out.end_time = RFC_MESSAGES.endBeforeStart;
  if (v.score === null || v.score === undefined || Number.isNaN(v.score)) out.score = RFC_MESSAGES.scoreRequired;
  else if (v.score < 0) out.score = RFC_MESSAGES.scoreNegative;
  else if (Math.abs(Math.round(v.score * 100) - v.score * 100) > 1e-6) out.score = RFC_MESSAGES.scorePrecision;
  else if (highest !== null && v.score > highest) {
    out.score = rfcMessage(opts.review ? RFC_MESSAGES.scoreAboveHighestShort : RFC_MESSAGES.scoreAboveHighest, {
      highest: scoreText(highest),
    });
  }
  return out;
}

/** A change round as the permission rules see it. */
export interface RfcRoundFacts {
  change: RfcStatus;
  saved: boolean;
  submitted: boolean;
}

/**
 * The buttons of a round (spec §6: the server decides; the dialog shows `show` ones): the enterprise saves while it
 * edits (userPermission and not saved), 修改 and 提交 once saved; a reviewer holding the to-do passes or rejects while
 * it is submitted; everyone may close.
 */
export function rfcOperations(
  r: RfcRoundFacts | null,
  perms: { userPermission: boolean; managerPermission: boolean },
): { code: RfcOperationCode; name: string; color: string; show: boolean }[] {
  const open = r === null || r.change === '1';
  const show: Record<RfcOperationCode, boolean> = {
    save: open && perms.userPermission && !(r?.saved ?? false),
    edit: open && perms.userPermission && (r?.saved ?? false) && !(r?.submitted ?? false),
    submit: open && perms.userPermission && (r?.saved ?? false) && !(r?.submitted ?? false),
    pass: open && perms.managerPermission && (r?.submitted ?? false),
    reject: open && perms.managerPermission && (r?.submitted ?? false),
    closed: true,
  };
  return (Object.keys(RFC_OPERATIONS) as RfcOperationCode[]).map((code) => ({
    code,
    ...RFC_OPERATIONS[code],
    show: show[code],
  }));
}

/** A new round may start when the business record has none, or its latest is decided ('2' or '-1'). */
export function rfcMayStartRound(latest: RfcStatus | null | undefined): boolean {
  return !latest || latest === '2' || latest === '-1';
}

/** The dialog's tab title: 第N轮变更. */
export const rfcRoundTitle = (round: number) => `第${round}轮变更`;
