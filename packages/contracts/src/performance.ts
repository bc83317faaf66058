import { z } from './zod';

/**
 * 企业业绩 (issue 19): the projects an enterprise completed — entered and reviewed through the engine node
 * PERFORMANCE_NODE (an enterprise declares one with its evidence, the centre reviews it); a passed record becomes a
 * performance of the enterprise, shown on the portal's market detail page and read by `performance-list` /
 * `performance`. Amounts are in yuan.
 */
export const PERFORMANCE_NODE = 'XYGL_QYYJ';

/** 承担角色: what the enterprise did on the project. */
export const PERFORMANCE_ROLES = ['施工总承包', '专业承包', '监理', '勘察', '设计', '货物供应', '服务'] as const;

export const PERFORMANCE_MSG = {
  missing: '业绩不存在或尚未通过审核',
  endBeforeStart: '竣工日期不能早于开工日期',
} as const;

export const performanceListSchema = z.object({
  /** one enterprise's; without it, every enterprise's */
  enterpriseId: z.string().uuid('企业不存在').optional(),
  /** part of the project's or the builder's name */
  keyword: z.string().trim().max(50, '关键字最多 50 个字符').optional(),
  role: z.enum(PERFORMANCE_ROLES).optional(),
  pageNum: z.number().int().min(1).max(10_000).default(1),
  pageSize: z.number().int().min(1).max(50).default(10),
});
export type PerformanceListQuery = z.infer<typeof performanceListSchema>;

export const performanceSchema = z.object({
  id: z.string(),
  enterpriseId: z.string(),
  enterpriseName: z.string(),
  projectName: z.string(),
  role: z.string(),
  /** 建设单位 */
  builder: z.string().nullable(),
  region: z.string().nullable(),
  /** contract amount, yuan, as a decimal string */
  amount: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** the engine record it was declared in (null: registered before declarations went through the engine) */
  recordId: z.string().nullable(),
});
export type Performance = z.infer<typeof performanceSchema>;

export const performanceIdSchema = z.object({ id: z.string().uuid(PERFORMANCE_MSG.missing) });
