import { bidSummarySchema } from './bids';
import { z } from './zod';

/**
 * The remote opening hall (不见面开标, issue 17, /bid/bidMeet). A section opens at its bid deadline (never before)
 * when at least OPENING_MIN_BIDS bids are sealed — else it is marked for re-tender. Bidders sign in (签到) and, once
 * the host starts the opening, hand over their bid's file key after unwrapping it in their browser (CA key or
 * passphrase) within the decryption time; the server checks the key against the sealed file's hashes. Then the
 * reading order is drawn from a seed committed at the start, the bids are read out (唱标) one by one to everyone in
 * the hall, each bidder confirms the reading or objects (answered on the record), and the host closes the opening;
 * its record is a PDF. Every step goes into the tamper-evident log.
 */
export const OPENING_MIN_BIDS = 3;
/** The decryption time when the host names none (DOMAIN.md: often 30–60 minutes). */
export const OPENING_DECRYPT_MINUTES_DEFAULT = 30;

export const OPENING_STATUSES = ['waiting', 'decrypting', 'reading', 'confirming', 'closed', 'failed'] as const;
export type OpeningStatus = (typeof OPENING_STATUSES)[number];
export const OPENING_STATUS_LABELS: Record<OpeningStatus, string> = {
  waiting: '等待开标',
  decrypting: '投标文件解密中',
  reading: '唱标中',
  confirming: '开标结果确认中',
  closed: '开标结束',
  failed: '流标（须重新招标）',
};

export const OPENING_BID_STATUSES = ['pending', 'decrypted', 'late'] as const;
export type OpeningBidStatus = (typeof OPENING_BID_STATUSES)[number];
export const OPENING_BID_STATUS_LABELS: Record<OpeningBidStatus, string> = {
  pending: '待解密',
  decrypted: '已解密',
  late: '逾期未解密（不予唱标）',
};

export const OPENING_MSG = {
  sectionMissing: '标段不存在，或您不能进入该标段的开标大厅',
  notHost: '只有该项目的招标人、招标代理或交易中心管理员可以主持开标',
  beforeDeadline: '未到投标截止时间（开标时间），不能开标',
  tooFew: `递交投标文件的投标人少于 ${OPENING_MIN_BIDS} 家，不得开标，该标段须重新招标`,
  notBidder: '贵单位没有该标段有效的投标文件',
  alreadyStarted: '开标已开始',
  notDecrypting: '当前不在投标文件解密阶段',
  decryptLate: '解密时间已过：该投标文件未在规定时间内解密，不予唱标，本次操作已记录',
  badKey: '文件密钥无法解开该投标文件：与封存时的哈希不符',
  alreadyDecrypted: '该投标文件已解密',
  stillDecrypting: '解密时间未到，且仍有投标文件未解密',
  notReading: '当前不在唱标阶段',
  notConfirming: '唱标尚未结束，不能确认或提出异议',
  alreadyConfirmed: '贵单位已确认开标结果',
  objectionMissing: '异议不存在',
  alreadyAnswered: '该异议已答复',
  openObjections: '仍有异议未答复，不能结束开标',
  notClosed: '开标尚未结束，开标记录尚未生成',
  signinClosed: '签到已结束',
} as const;

const uuid = (message: string) => z.uuid({ error: message });
export const openingSectionQuerySchema = z.object({ sectionId: uuid(OPENING_MSG.sectionMissing) });
export const openingSectionBodySchema = z.object({ sectionId: uuid(OPENING_MSG.sectionMissing) }).strict();

export const openingStartSchema = z
  .object({
    sectionId: uuid(OPENING_MSG.sectionMissing),
    /** the decryption time the tender documents set, minutes */
    decryptMinutes: z
      .number({ error: '请输入解密时限' })
      .int({ error: '解密时限应为整数分钟' })
      .min(1, { error: '解密时限至少 1 分钟' })
      .max(240, { error: '解密时限不超过 240 分钟' })
      .default(OPENING_DECRYPT_MINUTES_DEFAULT),
  })
  .strict();

export const openingDecryptSchema = z
  .object({
    bidId: uuid('投标文件不存在'),
    /** the bid's AES-256 file key, unwrapped in the bidder's browser, base64 (32 bytes) */
    fileKey: z
      .string({ error: '缺少文件密钥' })
      .regex(/^[A-Za-z0-9+/]{43}=$/, { error: '文件密钥应为 32 字节（base64）' }),
  })
  .strict();

export const openingRespondSchema = z.discriminatedUnion('kind', [
  z.object({ sectionId: uuid(OPENING_MSG.sectionMissing), kind: z.literal('confirm') }).strict(),
  z
    .object({
      sectionId: uuid(OPENING_MSG.sectionMissing),
      kind: z.literal('objection'),
      text: z
        .string({ error: '请填写异议内容' })
        .trim()
        .min(5, { error: '异议内容至少 5 个字' })
        .max(500, { error: '异议内容不超过 500 字' }),
    })
    .strict(),
]);
export type OpeningRespond = z.infer<typeof openingRespondSchema>;

export const openingAnswerSchema = z
  .object({
    id: uuid(OPENING_MSG.objectionMissing),
    answer: z
      .string({ error: '请填写答复' })
      .trim()
      .min(2, { error: '答复至少 2 个字' })
      .max(500, { error: '答复不超过 500 字' }),
  })
  .strict();

/** What the bidder's browser needs to unwrap its file key and open its sealed 开标一览表. */
export const openingOwnBidSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  keyId: z.string(),
  wrappedKey: z.string(),
  summary: z.string().nullable(),
  plainSha256: z.string(),
  cipherSha256: z.string(),
});

export const openingResponseSchema = z.object({
  id: z.string(),
  kind: z.enum(['confirm', 'objection']),
  text: z.string().nullable(),
  at: z.string(),
  userName: z.string(),
  answer: z.string().nullable(),
  answeredAt: z.string().nullable(),
  answeredBy: z.string().nullable(),
});
export type OpeningResponse = z.infer<typeof openingResponseSchema>;

export const openingBidSchema = z.object({
  bidId: z.string(),
  enterpriseId: z.string(),
  enterpriseName: z.string(),
  status: z.enum(OPENING_BID_STATUSES),
  decryptedAt: z.string().nullable(),
  /** why it is not read out (a late one) */
  reason: z.string().nullable(),
  signedIn: z.boolean(),
  /** 1-based position in the drawn reading order */
  order: z.number().nullable(),
  /** its 开标一览表, once read out (never before) */
  reading: bidSummarySchema.extend({ readAt: z.string() }).nullable(),
  /** the bidder's confirmation or objections, oldest first */
  responses: z.array(openingResponseSchema),
});
export type OpeningBid = z.infer<typeof openingBidSchema>;

export const openingEventSchema = z.object({
  seq: z.number(),
  at: z.string(),
  kind: z.string(),
  actorName: z.string(),
  text: z.string(),
  hash: z.string(),
});
export type OpeningEvent = z.infer<typeof openingEventSchema>;

export const openingHallSchema = z.object({
  section: z.object({
    id: z.string(),
    code: z.string(),
    name: z.string(),
    projectName: z.string(),
    bidDeadline: z.string(),
  }),
  status: z.enum(OPENING_STATUSES),
  /** the server's clock, for countdowns */
  now: z.string(),
  /** host: may run the opening; bidder: of a sealed bid's enterprise; viewer: reads (centre, supervisors, reviewers) */
  role: z.enum(['host', 'bidder', 'viewer']),
  /** the deadline has passed (the opening is due) */
  due: z.boolean(),
  startedAt: z.string().nullable(),
  decryptMinutes: z.number().nullable(),
  decryptDeadline: z.string().nullable(),
  closedAt: z.string().nullable(),
  failureReason: z.string().nullable(),
  /** SHA-256 of the order seed, committed in the log when the opening starts */
  seedCommitment: z.string().nullable(),
  /** the seed itself, revealed when the order is drawn: order = bids sorted by SHA-256(seed ‖ bidId) */
  seed: z.string().nullable(),
  /**
   * 评审系数 K, drawn with the order from the same seed (drawK of SHA-256(seed ‖ ":K")) among the centre's candidates;
   * the evaluation's benchmark price uses it
   */
  benchmarkK: z.object({ candidates: z.array(z.number()), value: z.number() }).nullable(),
  /** how many enterprises signed in (names are shown once the opening starts) */
  signedInCount: z.number(),
  /** the bids, from the start of the opening on (before it: empty — who bid stays secret) */
  bids: z.array(openingBidSchema),
  /** the caller's enterprise, for a bidder */
  mine: z
    .object({
      enterpriseName: z.string(),
      signedIn: z.boolean(),
      bid: openingOwnBidSchema.nullable(),
      status: z.enum(OPENING_BID_STATUSES).nullable(),
    })
    .nullable(),
  /** the section's entries of the tamper-evident log */
  events: z.array(openingEventSchema),
  actions: z.object({
    signIn: z.boolean(),
    start: z.boolean(),
    decrypt: z.boolean(),
    draw: z.boolean(),
    read: z.boolean(),
    respond: z.boolean(),
    answer: z.boolean(),
    close: z.boolean(),
    record: z.boolean(),
  }),
});
export type OpeningHall = z.infer<typeof openingHallSchema>;

/** A section the caller may enter the hall of (hosts: their projects'; bidders: those they sealed a bid for). */
export const openingSectionSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  projectName: z.string(),
  bidDeadline: z.string(),
  status: z.enum(OPENING_STATUSES),
  role: z.enum(['host', 'bidder', 'viewer']),
});
export const openingSectionsSchema = z.array(openingSectionSchema);
export type OpeningSection = z.infer<typeof openingSectionSchema>;
