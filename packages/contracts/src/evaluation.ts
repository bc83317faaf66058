import {
  BENCHMARK_RULES,
  EVAL_METHODS,
  EVAL_PANEL_LABELS,
  EVAL_PANELS,
  type EvalCriteria,
  type EvalPanel,
} from './evaluation-rules';
import { z } from './zod';

/**
 * Bid evaluation (评标, issue 17: /bidStep/*, /bidEvaluationSys/*, /bidZj/*). After the opening closes, the host (the
 * project's tenderee or agency, or an administrator) begins the evaluation of the section with the confirmed experts of
 * an extraction: each becomes a member of the committee, matched to the platform account with the same verified phone,
 * in the qualification panel (资格评审) and — by specialty — the technical (技术评审) or business (商务评审) panel.
 * Each member first declares whether they must avoid the section (回避); a member who declares a conflict is recused;
 * one who declares none signs in to each of their panels and only then sees the bids. The members elect a chair by
 * majority. Each member scores each bid on each item of their panels within its range (qualification: pass / fail with
 * a reason); a score far from the panel's median needs a written reason when submitted; a submitted panel is locked
 * until the chair reopens it with a reason. When every panel is submitted the chair renders the result (ranking per
 * the method, evaluation-rules.ts) and every member signs the report, agreeing or recording dissent.
 */

export const EVAL_STATUSES = ['none', 'signing', 'scoring', 'reporting', 'done'] as const;
export type EvalStatus = (typeof EVAL_STATUSES)[number];
export const EVAL_STATUS_LABELS: Record<EvalStatus, string> = {
  none: '未开始评标',
  signing: '专家签到与推选组长',
  scoring: '评审打分中',
  reporting: '评标报告签署中',
  done: '评标结束',
};

/** The default share of an item's highest score a score may lie from the panel's median without a reason. */
export const EVAL_DEVIATION_DEFAULT = 0.3;

/**
 * 评标澄清 (招标投标法实施条例第五十二条): the committee, through its chair, asks a bidder in writing to clarify an obvious
 * ambiguity or error of its bid; the bidder answers in writing (text and files) before the deadline; an answer may not
 * go beyond the bid nor change its substance. The deadline lies at least this many minutes ahead…
 */
export const EVAL_CLARIFY_MIN_MINUTES = 10;
/** …and at most this many days. */
export const EVAL_CLARIFY_MAX_DAYS = 7;
/** The node code the answers' files carry. */
export const EVAL_CLARIFY_FILE_NODE = 'PBCQ_DF';
export const EVAL_CLARIFY_STATUSES = ['asked', 'answered', 'expired', 'revoked'] as const;
export type EvalClarifyStatus = (typeof EVAL_CLARIFY_STATUSES)[number];
export const EVAL_CLARIFY_STATUS_LABELS: Record<EvalClarifyStatus, { text: string; color: string }> = {
  asked: { text: '待答复', color: 'processing' },
  answered: { text: '已答复', color: 'success' },
  expired: { text: '逾期未答复', color: 'error' },
  revoked: { text: '已撤回', color: 'default' },
};

export const EVAL_MSG = {
  sectionMissing: '标段不存在，或您不能查看该标段的评标',
  notHost: '只有该项目的招标人、招标代理或交易中心管理员可以组织评标',
  notClosed: '开标尚未结束，不能开始评标',
  alreadyBegun: '该标段已开始评标',
  notBegun: '该标段尚未开始评标',
  extractionMissing: '专家抽取记录不存在',
  extractionNotConfirmed: '该次专家抽取尚未确认',
  noMembers: '该次抽取没有已确认参加的专家',
  extractionOtherSection: '该次专家抽取不是为本标段抽取的',
  notMember: '您不是该标段评标委员会成员',
  recused: '您已申请回避，不能参加该标段的评审',
  mustDeclare: '请先签署回避声明',
  alreadyDeclared: '您已签署回避声明',
  notInPanel: (p: EvalPanel) => `您不在${EVAL_PANEL_LABELS[p]}组，不能评审该组的评审因素`,
  notSignedIn: (p: EvalPanel) => `请先签到${EVAL_PANEL_LABELS[p]}`,
  alreadySignedIn: '您已签到',
  noChair: '评标委员会尚未推选出组长',
  chairElected: '组长已推选产生',
  notChair: '只有评标委员会组长可以进行该操作',
  notScoring: '当前不在评审打分阶段',
  methodLocked: '已有专家开始评分，评标办法不能再修改',
  locked: (p: EvalPanel) => `您已提交${EVAL_PANEL_LABELS[p]}的评审结果，修改需由组长退回`,
  notSubmitted: '该专家尚未提交该组评审结果',
  bidMissing: '投标文件不在本次评标范围内',
  itemMissing: (id: string) => `评审因素不存在或不属于该组：${id}`,
  scoreRange: (name: string, max: number) => `「${name}」的得分应在 0 至 ${max} 分之间，最多两位小数`,
  incomplete: (n: number) => `还有 ${n} 项未评审，请全部评审后提交`,
  failNeedsReason: (bid: string, item: string) => `${bid}「${item}」判定为不合格，须填写理由`,
  deviation: '以下评分与评标委员会中位数偏离较大，须填写书面理由',
  notAllSubmitted: '仍有专家未提交评审结果',
  notReporting: '评标结果尚未汇总',
  alreadySigned: '您已签署评标报告',
  dissentNeedsReason: '持不同意见时须写明不同意见及理由',
  notDone: '评标报告尚未全部签署',
  memberMissing: '该专家不是本标段评标委员会成员',
  noAccount: (name: string) => `专家 ${name} 在平台没有手机号已验证的账号，无法签到`,
  alreadyPublished: '中标候选人已公示',
  noCandidates: '没有合格的投标人，不能公示中标候选人，须重新招标',
  publicityTooShort: (min: number) => `中标候选人公示期不得少于 ${min} 日`,
  notPublished: '中标候选人尚未公示',
  publicityClosed: '不在中标候选人公示期内，不能提出异议',
  notBidder: '贵单位不是该标段的投标人',
  objectionMissing: '异议不存在',
  objectionAnswered: '该异议已答复',
  publicityRunning: '公示期尚未结束，不能确定中标人',
  openObjections: '仍有异议未答复，不能确定中标人',
  alreadyAwarded: '中标人已确定',
  notAwarded: '中标人尚未确定',
  kDrawn: (k: number) => `评审系数 K 已在开标大厅随机抽取为 ${k.toFixed(2)}，评标办法须使用该值`,
  clarifyMissing: '澄清不存在或已撤回',
  clarifyNotOpen: '只有在评审阶段可以要求投标人澄清',
  clarifyDeadline: `答复截止时间应在 ${EVAL_CLARIFY_MIN_MINUTES} 分钟之后、${EVAL_CLARIFY_MAX_DAYS} 日之内`,
  clarifyClosed: '已过答复截止时间，不能再答复',
  clarifyNotAsked: '只有被要求澄清的投标人可以答复',
  clarifyDone: '该澄清已答复或已撤回',
  clarifyFileMissing: '附件不存在或不是您上传的',
  principalNotOpen: '只能在专家签到或评审打分阶段确定或更换评标委员会负责人（组长）',
  alreadyPrincipal: '该专家已是评标委员会负责人（组长）',
  principalNotSignedIn: '该专家尚未签到，不能担任评标委员会负责人（组长）',
} as const;

const uuid = (message: string) => z.uuid({ error: message });
const sectionId = uuid(EVAL_MSG.sectionMissing);
export const evalSectionQuerySchema = z.object({ sectionId });
export const evalSectionBodySchema = z.object({ sectionId }).strict();
const panel = z.enum(EVAL_PANELS, { error: '评审组应为 ZS、JS 或 SW' });

export const evalBeginSchema = z
  .object({ sectionId, extractionId: uuid(EVAL_MSG.extractionMissing), method: z.enum(EVAL_METHODS).optional() })
  .strict();

const itemId = z.string().regex(/^[a-z][a-z0-9]{0,9}$/, { error: '评审因素编号应为小写字母开头的 1–10 位字母数字' });
const itemName = z.string().trim().min(2, { error: '评审因素名称至少 2 个字' }).max(60, { error: '名称不超过 60 字' });
const points = (label: string) =>
  z
    .number({ error: `请输入${label}` })
    .min(0, { error: `${label}不能为负` })
    .max(100, { error: `${label}不超过 100` })
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { error: `${label}最多两位小数` });

export const evalCriteriaSchema: z.ZodType<EvalCriteria> = z
  .object({
    method: z.enum(EVAL_METHODS, { error: '请选择评标办法' }),
    qualification: z.array(z.object({ id: itemId, name: itemName }).strict()).max(30, { error: '资格评审因素过多' }),
    technical: z
      .array(z.object({ id: itemId, name: itemName, max: points('分值') }).strict())
      .max(100, { error: '技术评审因素过多' }),
    business: z
      .array(z.object({ id: itemId, name: itemName, max: points('分值') }).strict())
      .max(100, { error: '商务评审因素过多' }),
    price: z
      .object({
        max: points('价格分满分'),
        benchmark: z.enum(BENCHMARK_RULES, { error: '请选择基准价计算方法' }),
        k: z.number({ error: '请输入下浮系数 K' }).min(0.8, { error: 'K 不小于 0.80' }).max(1, { error: 'K 不大于 1' }),
        abovePerPct: z.number({ error: '请输入扣分' }).min(0).max(10, { error: '每高 1% 扣分不超过 10 分' }),
        belowPerPct: z.number({ error: '请输入扣分' }).min(0).max(10, { error: '每低 1% 扣分不超过 10 分' }),
      })
      .strict(),
    deviation: z
      .number({ error: '请输入偏离阈值' })
      .min(0.05, { error: '偏离阈值不小于 5%' })
      .max(1, { error: '偏离阈值不大于 100%' }),
  })
  .strict();

export const evalMethodSchema = z.object({ sectionId, criteria: evalCriteriaSchema }).strict();

export const evalDeclareSchema = z.discriminatedUnion('conflict', [
  z.object({ sectionId, conflict: z.literal(false) }).strict(),
  z
    .object({
      sectionId,
      conflict: z.literal(true),
      text: z.string({ error: '请说明回避事由' }).trim().min(4, { error: '回避事由至少 4 个字' }).max(500),
    })
    .strict(),
]);
export type EvalDeclare = z.infer<typeof evalDeclareSchema>;

export const evalSignInSchema = z.object({ sectionId, panel }).strict();
export const evalVoteSchema = z.object({ sectionId, memberId: uuid(EVAL_MSG.memberMissing) }).strict();

export const evalScoreInputSchema = z
  .object({
    bidId: uuid(EVAL_MSG.bidMissing),
    itemId,
    score: z.number().nullable().optional(),
    pass: z.boolean().nullable().optional(),
    reason: z.string().trim().max(500, { error: '理由不超过 500 字' }).optional(),
  })
  .strict();
export const evalSaveSchema = z
  .object({
    sectionId,
    panel,
    scores: z
      .array(evalScoreInputSchema)
      .min(1, { error: '没有要保存的评分' })
      .max(5000, { error: '一次最多保存 5000 项' }),
  })
  .strict();
export type EvalSave = z.infer<typeof evalSaveSchema>;

export const evalSubmitSchema = z.object({ sectionId, panel }).strict();
export const evalReopenSchema = z
  .object({
    sectionId,
    memberId: uuid(EVAL_MSG.memberMissing),
    panel,
    reason: z.string({ error: '请填写退回理由' }).trim().min(4, { error: '退回理由至少 4 个字' }).max(500),
  })
  .strict();
/**
 * 确定 / 更换评标委员会负责人 (update-principal): the tenderee's side names the committee's chair itself (the law lets
 * the chair be elected by the members or named by the tenderee), or replaces one, with a reason.
 */
export const evalPrincipalSchema = z
  .object({
    sectionId,
    memberId: uuid(EVAL_MSG.memberMissing),
    reason: z.string({ error: '请填写理由' }).trim().min(4, { error: '理由至少 4 个字' }).max(500),
  })
  .strict();
export type EvalPrincipal = z.infer<typeof evalPrincipalSchema>;
export const evalSignReportSchema = z.discriminatedUnion('agree', [
  z.object({ sectionId, agree: z.literal(true) }).strict(),
  z
    .object({
      sectionId,
      agree: z.literal(false),
      dissent: z
        .string({ error: EVAL_MSG.dissentNeedsReason })
        .trim()
        .min(4, { error: EVAL_MSG.dissentNeedsReason })
        .max(1000),
    })
    .strict(),
]);
export const evalExportQuerySchema = z.object({
  sectionId,
  format: z.enum(['xlsx', 'pdf'], { error: '导出格式应为 xlsx 或 pdf' }).default('pdf'),
});
export const evalDocumentQuerySchema = z.object({ sectionId, bidId: uuid(EVAL_MSG.bidMissing) });

export const evalPublishSchema = z
  .object({
    sectionId,
    /** the publicity period in days (at least the setting, itself at least the legal 3) */
    days: z.number({ error: '请输入公示天数' }).int({ error: '公示天数应为整数' }).min(1).max(30).optional(),
  })
  .strict();
export const evalObjectionSchema = z
  .object({
    sectionId,
    text: z.string({ error: '请填写异议内容' }).trim().min(5, { error: '异议内容至少 5 个字' }).max(1000),
  })
  .strict();
export const evalObjectionAnswerSchema = z
  .object({
    id: uuid(EVAL_MSG.objectionMissing),
    answer: z.string({ error: '请填写答复' }).trim().min(5, { error: '答复至少 5 个字' }).max(1000),
  })
  .strict();

export const evalClarifyAskSchema = z
  .object({
    sectionId,
    bidId: uuid(EVAL_MSG.bidMissing),
    question: z
      .string({ error: '请填写需澄清的问题' })
      .trim()
      .min(5, { error: '需澄清的问题至少 5 个字' })
      .max(2000, { error: '需澄清的问题不超过 2000 字' }),
    deadline: z.iso.datetime({ offset: true, error: '请选择答复截止时间' }),
  })
  .strict();
export type EvalClarifyAsk = z.infer<typeof evalClarifyAskSchema>;
export const evalClarifyAnswerSchema = z
  .object({
    id: uuid(EVAL_MSG.clarifyMissing),
    answer: z
      .string({ error: '请填写澄清内容' })
      .trim()
      .min(2, { error: '澄清内容至少 2 个字' })
      .max(4000, { error: '澄清内容不超过 4000 字' }),
    fileIds: z
      .array(uuid(EVAL_MSG.clarifyFileMissing))
      .max(5, { error: '附件最多 5 个' })
      .refine((a) => new Set(a).size === a.length, { error: '附件重复' })
      .default([]),
  })
  .strict();
export type EvalClarifyAnswer = z.input<typeof evalClarifyAnswerSchema>;
export const evalClarifyRevokeSchema = z
  .object({
    id: uuid(EVAL_MSG.clarifyMissing),
    reason: z.string({ error: '请填写撤回原因' }).trim().min(2, { error: '撤回原因至少 2 个字' }).max(500),
  })
  .strict();

export const evalClarificationSchema = z.object({
  id: z.string(),
  bidId: z.string(),
  enterpriseName: z.string(),
  question: z.string(),
  deadline: z.string(),
  askedBy: z.string(),
  askedAt: z.string(),
  status: z.enum(EVAL_CLARIFY_STATUSES),
  answer: z.string().nullable(),
  answeredAt: z.string().nullable(),
  answeredBy: z.string().nullable(),
  files: z.array(z.object({ id: z.string(), name: z.string(), size: z.number() })),
  revokeReason: z.string().nullable(),
});
export type EvalClarification = z.infer<typeof evalClarificationSchema>;

export const evalObjectionOutSchema = z.object({
  id: z.string(),
  enterpriseName: z.string(),
  userName: z.string(),
  text: z.string(),
  at: z.string(),
  answer: z.string().nullable(),
  answeredAt: z.string().nullable(),
});
export type EvalObjection = z.infer<typeof evalObjectionOutSchema>;

export const evalCandidateSchema = z.object({
  rank: z.number(),
  bidId: z.string(),
  enterpriseName: z.string(),
  price: z.number(),
  total: z.number().nullable(),
});

/** What follows the evaluation: the candidates' publicity, objections, the award. */
export const evalOutcomeSchema = z.object({
  candidates: z.array(evalCandidateSchema),
  /** the last day to publish the candidates (the setting's days after the report was completed) */
  publishBy: z.string().nullable(),
  publicity: z
    .object({ noticeId: z.string(), start: z.string(), end: z.string(), late: z.boolean(), running: z.boolean() })
    .nullable(),
  objections: z.array(evalObjectionOutSchema),
  award: z
    .object({ bidId: z.string(), enterpriseName: z.string(), at: z.string(), resultNoticeId: z.string() })
    .nullable(),
});
export type EvalOutcome = z.infer<typeof evalOutcomeSchema>;

/** A bidder's view of the section after the evaluation (the room stays closed to bidders). */
export const evalBidderOutcomeSchema = evalOutcomeSchema.extend({
  section: z.object({ id: z.string(), code: z.string(), name: z.string(), projectName: z.string() }),
  enterpriseName: z.string(),
  /** the committee's requests for clarification to this bidder (during the evaluation too) */
  clarifications: z.array(evalClarificationSchema),
  actions: z.object({ object: z.boolean(), awardNotice: z.boolean() }),
});
export type EvalBidderOutcome = z.infer<typeof evalBidderOutcomeSchema>;

/** The stages of a section's tendering, in order (/ks/trade/overview-status). */
export const TRADE_STAGES = ['notice', 'bids', 'opening', 'evaluation', 'publicity', 'award'] as const;
export type TradeStage = (typeof TRADE_STAGES)[number];
export const TRADE_STAGE_LABELS: Record<TradeStage, string> = {
  notice: '招标公告',
  bids: '投标文件递交',
  opening: '开标',
  evaluation: '评标',
  publicity: '中标候选人公示',
  award: '定标',
};
/** Where a section stands in each stage: antd Steps' statuses (error: the opening failed, the section re-tenders). */
export const tradeOverviewSchema = z.object({
  sectionId: z.string(),
  current: z.enum(TRADE_STAGES),
  stages: z.array(
    z.object({
      key: z.enum(TRADE_STAGES),
      title: z.string(),
      status: z.enum(['wait', 'process', 'finish', 'error']),
      /** when the stage finished (or began, while in process), ISO */
      at: z.string().nullable(),
      /** one line on it: counts, the period, the state */
      detail: z.string(),
    }),
  ),
});
export type TradeOverview = z.infer<typeof tradeOverviewSchema>;

/** The stage of a section and the buttons each role may use in it (/ks/trade/buttons). */
export const tradeButtonsSchema = z.object({
  stage: z.string(),
  stageLabel: z.string(),
  role: z.enum(['host', 'member', 'viewer', 'bidder']),
  buttons: z.array(z.string()),
});
export type TradeButtons = z.infer<typeof tradeButtonsSchema>;

const panelTimes = z.object({ ZS: z.string().nullable(), JS: z.string().nullable(), SW: z.string().nullable() });

export const evalMemberSchema = z.object({
  id: z.string(),
  name: z.string(),
  specialty: z.string(),
  employer: z.string(),
  /** the panels the member evaluates */
  panels: z.array(z.enum(EVAL_PANELS)),
  hasAccount: z.boolean(),
  declaredAt: z.string().nullable(),
  recused: z.boolean(),
  /** the conflict declared (recused members), shown to the host and supervisors */
  conflict: z.string().nullable(),
  signins: panelTimes,
  submitted: panelTimes,
  chair: z.boolean(),
  votes: z.number(),
  reportSignedAt: z.string().nullable(),
  dissent: z.string().nullable(),
});
export type EvalMember = z.infer<typeof evalMemberSchema>;

export const evalBidSchema = z.object({
  bidId: z.string(),
  enterpriseName: z.string(),
  price: z.number(),
  durationDays: z.number().nullable(),
  quality: z.string().nullable(),
  manager: z.string().nullable(),
  readOrder: z.number(),
  fileName: z.string(),
});
export type EvalBid = z.infer<typeof evalBidSchema>;

export const evalScoreSchema = z.object({
  bidId: z.string(),
  itemId: z.string(),
  score: z.number().nullable(),
  pass: z.boolean().nullable(),
  reason: z.string(),
});
export type EvalScore = z.infer<typeof evalScoreSchema>;

const panelWorkingSchema = z.object({
  totals: z.record(z.string(), z.number()),
  dropped: z.array(z.number()),
  value: z.number(),
});
export const evalResultSchema = z.object({
  method: z.enum(EVAL_METHODS),
  benchmark: z
    .object({
      rule: z.enum(BENCHMARK_RULES),
      prices: z.array(z.number()),
      dropped: z.array(z.number()),
      mean: z.number(),
      k: z.number(),
      value: z.number(),
    })
    .nullable(),
  rows: z.array(
    z.object({
      bidId: z.string(),
      qualified: z.boolean(),
      failures: z.array(
        z.object({
          itemId: z.string(),
          name: z.string(),
          fails: z.number(),
          of: z.number(),
          reasons: z.array(z.string()),
        }),
      ),
      technical: panelWorkingSchema.nullable(),
      business: panelWorkingSchema.nullable(),
      price: z.number(),
      deviationPct: z.number().nullable(),
      priceScore: z.number().nullable(),
      total: z.number().nullable(),
      rank: z.number().nullable(),
    }),
  ),
});

export const EVAL_ANOMALY_KINDS = [
  'noReason',
  'lateSignin',
  'reopened',
  'recused',
  'latePublicity',
  'principal',
] as const;
export const EVAL_ANOMALY_LABELS: Record<(typeof EVAL_ANOMALY_KINDS)[number], string> = {
  noReason: '偏离评分无理由',
  lateSignin: '迟到签到',
  reopened: '评分被退回重评',
  recused: '专家回避',
  latePublicity: '逾期公示',
  principal: '招标人指定或更换组长',
};
export const evalAnomalySchema = z.object({
  /** names the anomaly for as long as it stands (the supervision console's findings refer to it) */
  key: z.string(),
  kind: z.enum(EVAL_ANOMALY_KINDS),
  at: z.string().nullable(),
  text: z.string(),
});
export type EvalAnomaly = z.infer<typeof evalAnomalySchema>;

export const evalReopenRecordSchema = z.object({
  memberName: z.string(),
  panel: z.enum(EVAL_PANELS),
  reason: z.string(),
  at: z.string(),
  byName: z.string(),
});

export const evalRoomSchema = z.object({
  section: z.object({ id: z.string(), code: z.string(), name: z.string(), projectName: z.string() }),
  status: z.enum(EVAL_STATUSES),
  /** host: organises; member: of the committee; viewer: reads (centre, supervisors) */
  role: z.enum(['host', 'member', 'viewer']),
  now: z.string(),
  /** the opening has closed (the evaluation may begin) */
  openingClosed: z.boolean(),
  /** 评审系数 K drawn in the opening hall (the method's K is this one), null when none was drawn */
  drawnK: z.number().nullable(),
  /** evaluationStartAt: wall-clock YYYY-MM-DD HH:mm in the platform's zone, as the extraction keeps it */
  extraction: z.object({ id: z.string(), code: z.string(), evaluationStartAt: z.string() }).nullable(),
  criteria: evalCriteriaSchema.nullable(),
  members: z.array(evalMemberSchema),
  /** the caller's membership */
  me: evalMemberSchema.nullable(),
  /** the bids under evaluation: to a member only once they declared no conflict and signed in */
  bids: z.array(evalBidSchema),
  /** the caller's own scores (a member) */
  myScores: z.array(evalScoreSchema),
  /** every member's scores, once the result is rendered (the report) or to the host and viewers after submission */
  allScores: z.array(evalScoreSchema.extend({ memberId: z.string(), panel: z.enum(EVAL_PANELS) })),
  result: evalResultSchema.nullable(),
  reopens: z.array(evalReopenRecordSchema),
  clarifications: z.array(evalClarificationSchema),
  anomalies: z.array(evalAnomalySchema),
  outcome: evalOutcomeSchema.nullable(),
  /** the supervisors' findings issued to the parties (监督意见, published in 监督台), oldest first */
  supervision: z.array(
    z.object({
      id: z.string(),
      /** 合规 or 责令整改 */
      verdictLabel: z.string(),
      rectify: z.boolean(),
      anomalyText: z.string().nullable(),
      opinion: z.string(),
      byName: z.string(),
      publishedAt: z.string(),
    }),
  ),
  events: z.array(
    z.object({
      seq: z.number(),
      at: z.string(),
      kind: z.string(),
      actorName: z.string(),
      text: z.string(),
      hash: z.string(),
    }),
  ),
  actions: z.object({
    begin: z.boolean(),
    method: z.boolean(),
    declare: z.boolean(),
    signIn: z.array(z.enum(EVAL_PANELS)),
    vote: z.boolean(),
    score: z.array(z.enum(EVAL_PANELS)),
    reopen: z.boolean(),
    /** the chair asks a bidder to clarify */
    clarify: z.boolean(),
    /** the host names or replaces the chair (update-principal) */
    principal: z.boolean(),
    render: z.boolean(),
    sign: z.boolean(),
    export: z.boolean(),
    publish: z.boolean(),
    answer: z.boolean(),
    award: z.boolean(),
    awardNotice: z.boolean(),
  }),
});
export type EvalRoom = z.infer<typeof evalRoomSchema>;

/** A section in the evaluation overview (result-list). */
export const evalSectionSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  projectName: z.string(),
  status: z.enum(EVAL_STATUSES),
  role: z.enum(['host', 'member', 'viewer']),
  members: z.number(),
  submitted: z.number(),
  winner: z.string().nullable(),
  /** the candidates are on the portal */
  published: z.boolean(),
  awarded: z.boolean(),
});
export const evalSectionsSchema = z.array(evalSectionSchema);
export type EvalSection = z.infer<typeof evalSectionSchema>;

/** Confirmed extractions a host may form the committee from. */
export const evalExtractionOptionSchema = z.object({
  id: z.string(),
  code: z.string(),
  projectName: z.string(),
  sectionName: z.string(),
  members: z.number(),
  evaluationStartAt: z.string(),
});
export const evalExtractionOptionsSchema = z.array(evalExtractionOptionSchema);
