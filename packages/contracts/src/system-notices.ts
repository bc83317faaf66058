import { PAGE_SIZES } from './constants';
import { z } from './zod';

/**
 * System notices (spec screen 16, §3 Notice, §4 Notice): administrators publish them to the signed-in users — type 1
 * scrolls in a marquee bar under the header (the floating notice, which a user may dismiss for good), type 2 opens a
 * modal with 我知道了 that each user sees once. Not the portal's public transaction notices (portal.ts).
 */
export const SYSTEM_NOTICE_TYPES = [1, 2] as const;
export type SystemNoticeType = (typeof SYSTEM_NOTICE_TYPES)[number];
export const SYSTEM_NOTICE_TYPE_LABELS: Record<SystemNoticeType, string> = { 1: '滚动公告', 2: '弹窗通知' };

export const SYSTEM_NOTICE_STATUSES = ['draft', 'published', 'withdrawn'] as const;
export type SystemNoticeStatus = (typeof SYSTEM_NOTICE_STATUSES)[number];
export const SYSTEM_NOTICE_STATUS_LABELS: Record<SystemNoticeStatus, string> = {
  draft: '草稿',
  published: '已发布',
  withdrawn: '已撤回',
};

export const SYSTEM_NOTICE_AUDIENCES = ['everyone', 'role', 'enterprises'] as const;
export type SystemNoticeAudience = (typeof SYSTEM_NOTICE_AUDIENCES)[number];
export const SYSTEM_NOTICE_AUDIENCE_LABELS: Record<SystemNoticeAudience, string> = {
  everyone: '全部用户',
  role: '指定角色',
  enterprises: '指定企业',
};

export const SYSTEM_NOTICE_TITLE_MAX = 100;
export const SYSTEM_NOTICE_MSG_MAX = 20_000;
export const SYSTEM_NOTICE_ENTERPRISES_MAX = 200;
/** §4: a notice whose msgId is this only closes (the client never reports it as read). */
export const NOTICE_CLOSE_ONLY_MSG_ID = -99;

const pageNum = z.coerce.number().int().min(1).max(100_000).default(1);
const pageSize = z.coerce
  .number()
  .int()
  .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), '每页条数只能是 10、20、30、50')
  .default(10);
const instant = (message: string) => z.string({ message }).datetime({ offset: true, message: '时间格式有误' });
const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .nullish()
    .transform((v) => (v ? v : null));

export const systemNoticeInputSchema = z
  .object({
    type: z.union([z.literal(1), z.literal(2)], { message: '请选择通知类型' }),
    title: z
      .string({ message: '请输入通知标题' })
      .trim()
      .min(1, '请输入通知标题')
      .max(SYSTEM_NOTICE_TITLE_MAX, `标题不能超过${SYSTEM_NOTICE_TITLE_MAX}个字符`),
    /** HTML; sanitised on the server before it is stored */
    msg: z.string({ message: '请填写通知内容' }).min(1, '请填写通知内容').max(SYSTEM_NOTICE_MSG_MAX, '通知内容过长'),
    /** the attachment: the download address of a public notice file (upload-notice), and its name */
    url: optionalText(500, '附件地址过长'),
    urlName: optionalText(200, '附件名称不能超过200个字符'),
    audience: z.enum(SYSTEM_NOTICE_AUDIENCES, { message: '请选择通知对象' }),
    roleCode: optionalText(63, '角色编码有误'),
    enterpriseIds: z
      .array(z.string().uuid('企业不存在'))
      .max(SYSTEM_NOTICE_ENTERPRISES_MAX, `最多选择${SYSTEM_NOTICE_ENTERPRISES_MAX}家企业`)
      .default([]),
    startAt: instant('请选择开始时间'),
    endAt: instant('请选择结束时间'),
  })
  .superRefine((v, ctx) => {
    if (v.audience === 'role' && !v.roleCode)
      ctx.addIssue({ code: 'custom', path: ['roleCode'], message: '请选择角色' });
    if (v.audience === 'enterprises' && v.enterpriseIds.length === 0)
      ctx.addIssue({ code: 'custom', path: ['enterpriseIds'], message: '请选择企业' });
    if (Date.parse(v.endAt) <= Date.parse(v.startAt))
      ctx.addIssue({ code: 'custom', path: ['endAt'], message: '结束时间须晚于开始时间' });
    if (v.url && !v.urlName) ctx.addIssue({ code: 'custom', path: ['urlName'], message: '请填写附件名称' });
    if (v.urlName && !v.url) ctx.addIssue({ code: 'custom', path: ['url'], message: '请上传附件' });
  });
export type SystemNoticeInput = z.infer<typeof systemNoticeInputSchema>;

/** Create (no id) or update (id and the version read) a system notice. */
export const systemNoticeSaveSchema = z
  .object({ id: z.string().uuid('通知不存在').optional(), version: z.number().int().min(1).optional() })
  .and(systemNoticeInputSchema)
  .refine((v) => !v.id || v.version !== undefined, { message: '缺少版本号，请刷新后重试', path: ['version'] });
export type SystemNoticeSave = z.input<typeof systemNoticeSaveSchema>;

export const systemNoticeListQuerySchema = z.object({
  type: z.coerce
    .number()
    .pipe(z.union([z.literal(1), z.literal(2)], { message: '通知类型有误' }))
    .optional(),
  status: z.enum(SYSTEM_NOTICE_STATUSES, { message: '状态有误' }).optional(),
  keyword: z.string().trim().max(50, '关键字不能超过50个字符').optional(),
  pageNum,
  pageSize,
});

/** A system notice as administrators see it, with how many of its audience read it. */
export const systemNoticeSchema = z.object({
  id: z.string(),
  type: z.union([z.literal(1), z.literal(2)]),
  title: z.string(),
  msg: z.string(),
  url: z.string().nullable(),
  urlName: z.string().nullable(),
  audience: z.enum(SYSTEM_NOTICE_AUDIENCES),
  roleCode: z.string().nullable(),
  /** the role's name (null: no role, or a role since deleted) */
  roleName: z.string().nullable(),
  enterprises: z.array(z.object({ id: z.string(), name: z.string() })),
  startAt: z.string(),
  endAt: z.string(),
  status: z.enum(SYSTEM_NOTICE_STATUSES),
  version: z.number().int(),
  publishedAt: z.string().nullable(),
  createdByName: z.string().nullable(),
  updatedAt: z.string(),
  /** users of the audience who read it (我知道了, or closed the bar) */
  readCount: z.number().int(),
  /** active users the audience names now */
  audienceSize: z.number().int(),
});
export type SystemNotice = z.infer<typeof systemNoticeSchema>;

export const systemNoticeReadsQuerySchema = z.object({
  id: z.string().uuid('通知不存在'),
  pageNum,
  pageSize,
});
export const systemNoticeReadSchema = z.object({
  userId: z.string(),
  account: z.string(),
  userName: z.string(),
  enterpriseName: z.string().nullable(),
  readAt: z.string().nullable(),
  /** the floating notice was dismissed for good (不再显示) */
  dismissed: z.boolean(),
});
export type SystemNoticeRead = z.infer<typeof systemNoticeReadSchema>;

/** §3 Notice: what the signed-in user is shown now. */
export const currentNoticeSchema = z.object({
  msgId: z.string(),
  type: z.union([z.literal(1), z.literal(2)]),
  title: z.string(),
  /** sanitised HTML */
  msg: z.string(),
  url: z.string().nullable(),
  urlName: z.string().nullable(),
  show: z.boolean(),
});
export type CurrentNotice = z.infer<typeof currentNoticeSchema>;

/** notice-read / dismiss: the msgId of a notice (-99 is never sent: it only closes on the client). */
export const noticeMsgSchema = z.object({ msgId: z.string().uuid('通知不存在或已结束') });
