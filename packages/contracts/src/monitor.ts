import { EVAL_ANOMALY_KINDS, EVAL_STATUSES } from './evaluation';
import { OPENING_STATUSES } from './opening';
import { z } from './zod';

/**
 * 监督台 (issue 17, /ks/monitor/*): the supervision office follows every section from its opening to its award. A
 * section is assigned to one supervisor at a time (assign; revoke with a reason); the supervisor records findings
 * (audit: 核查意见) on the anomalies the evaluation raises — scores without reasons, late sign-ins, reopened scores,
 * recusals, late publicity — or on the section as a whole. Every step is an entry of the tamper-evident log, an
 * operation-log row and a live `monitor` event. Administrators (M) and holders of 监督查看 on the tender projects use it;
 * developers (D) read it.
 */

export const MONITOR_MSG = {
  notSupervisor: '只有监督人员或管理员可以使用监督台',
  readOnly: '开发者只能查看监督台，不能办理',
  sectionMissing: '标段不存在或无权查看',
  supervisorMissing: '请选择具有监督权限的人员',
  alreadyAssigned: '该标段已由此监督人员负责',
  reassignAdminOnly: '该标段已由其他监督人员负责，只有管理员可以改派',
  notAssigned: '该标段尚未指派监督人员',
  notYours: '只有负责该标段的监督人员或管理员可以记录核查意见',
  revokeNotYours: '只有管理员或负责该标段的监督人员可以撤回指派',
  anomalyMissing: '该异常不存在或已消除，请刷新后重试',
  alreadyAudited: '该异常已有核查意见',
  findingMissing: '核查意见不存在',
  alreadyPublished: '该核查意见已发布',
  publishNotYours: '只有记录该核查意见的监督人员或管理员可以发布',
} as const;

/** Where a section stands, as the console shows it (the opening's state, then the evaluation's, then the results'). */
export const MONITOR_STAGES = ['opening', 'evaluating', 'publicity', 'awarded'] as const;
export type MonitorStage = (typeof MONITOR_STAGES)[number];
export const MONITOR_STAGE_LABELS: Record<MonitorStage, string> = {
  opening: '开标',
  evaluating: '评标',
  publicity: '候选人公示',
  awarded: '已定标',
};

/** 核查结论: compliant, or the host must correct (整改: the host's accounts are told). */
export const MONITOR_VERDICTS = ['compliant', 'rectify'] as const;
export type MonitorVerdict = (typeof MONITOR_VERDICTS)[number];
export const MONITOR_VERDICT_LABELS: Record<MonitorVerdict, string> = { compliant: '合规', rectify: '责令整改' };

const sectionId = z.uuid({ error: MONITOR_MSG.sectionMissing });

export const monitorListQuerySchema = z
  .object({
    pageNum: z.coerce.number().int().min(1).max(10_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(50).default(10),
    stage: z.enum(MONITOR_STAGES, { error: '阶段应为 opening、evaluating、publicity 或 awarded' }).optional(),
    keyWord: z.string().trim().max(50).optional(),
    /** only the sections assigned to the caller */
    mine: z.boolean().optional(),
    /** only the sections with anomalies not yet audited */
    pending: z.boolean().optional(),
  })
  .strict();
export type MonitorListQuery = z.infer<typeof monitorListQuerySchema>;

export const monitorPersonSchema = z.object({ id: z.string(), userName: z.string() });

export const monitorRowSchema = z.object({
  sectionId: z.string(),
  code: z.string(),
  name: z.string(),
  projectNo: z.string(),
  projectName: z.string(),
  bidDeadline: z.string(),
  stage: z.enum(MONITOR_STAGES),
  openingStatus: z.enum(OPENING_STATUSES),
  evaluationStatus: z.enum(EVAL_STATUSES),
  bids: z.number(),
  anomalies: z.number(),
  /** anomalies without a finding */
  pendingAnomalies: z.number(),
  findings: z.number(),
  supervisor: monitorPersonSchema.nullable(),
  /** the latest entry of the section's log */
  lastEventAt: z.string().nullable(),
});
export type MonitorRow = z.infer<typeof monitorRowSchema>;
export const monitorPageSchema = z.object({ records: z.array(monitorRowSchema), total: z.number() });
export type MonitorPage = z.infer<typeof monitorPageSchema>;

export const monitorSectionQuerySchema = z.object({ sectionId });

export const monitorFindingSchema = z.object({
  id: z.string(),
  anomalyKey: z.string().nullable(),
  /** the anomaly's wording when the finding was recorded (the anomaly may since have gone) */
  anomalyText: z.string().nullable(),
  verdict: z.enum(MONITOR_VERDICTS),
  opinion: z.string(),
  byName: z.string(),
  at: z.string(),
  /** issued to the parties (shown in the evaluation room), null while internal */
  publishedAt: z.string().nullable(),
  publishedByName: z.string().nullable(),
});
export type MonitorFinding = z.infer<typeof monitorFindingSchema>;

export const monitorAssignmentSchema = z.object({
  supervisor: monitorPersonSchema,
  assignedByName: z.string(),
  assignedAt: z.string(),
  revokedAt: z.string().nullable(),
  revokedByName: z.string().nullable(),
  revokeReason: z.string().nullable(),
});

export const monitorViewSchema = z.object({
  row: monitorRowSchema,
  anomalies: z.array(
    z.object({
      key: z.string(),
      kind: z.enum(EVAL_ANOMALY_KINDS),
      at: z.string().nullable(),
      text: z.string(),
      finding: monitorFindingSchema.nullable(),
    }),
  ),
  /** findings on the section as a whole, and on anomalies that have since gone */
  findings: z.array(monitorFindingSchema),
  assignments: z.array(monitorAssignmentSchema),
  /** who the caller may assign the section to (active accounts holding 监督查看 on the tender projects) */
  candidates: z.array(monitorPersonSchema),
  /** publish: the unpublished findings the caller may issue (its own; an administrator's: all) */
  actions: z.object({
    assign: z.boolean(),
    revoke: z.boolean(),
    audit: z.boolean(),
    publish: z.array(z.string()),
  }),
});
export type MonitorView = z.infer<typeof monitorViewSchema>;

export const monitorAssignSchema = z
  .object({ sectionId, userId: z.uuid({ error: MONITOR_MSG.supervisorMissing }) })
  .strict();
export const monitorRevokeSchema = z
  .object({
    sectionId,
    reason: z.string({ error: '请填写撤回理由' }).trim().min(4, { error: '撤回理由至少 4 个字' }).max(500),
  })
  .strict();
export const monitorAuditSchema = z
  .object({
    sectionId,
    /** the anomaly audited; absent: a finding on the section as a whole */
    anomalyKey: z.string().trim().min(1).max(200).optional(),
    verdict: z.enum(MONITOR_VERDICTS, { error: '请选择核查结论' }),
    opinion: z.string({ error: '请填写核查意见' }).trim().min(4, { error: '核查意见至少 4 个字' }).max(1000),
  })
  .strict();
export type MonitorAudit = z.infer<typeof monitorAuditSchema>;
export const monitorPublishSchema = z.object({ sectionId, id: z.uuid({ error: MONITOR_MSG.findingMissing }) }).strict();
/** The export's filters, in the query string (booleans as true/false). */
export const monitorExportQuerySchema = monitorListQuerySchema
  .omit({ pageNum: true, pageSize: true, mine: true, pending: true })
  .extend({ mine: z.stringbool().optional(), pending: z.stringbool().optional() });
