import { paths } from './paths';
import { performanceIdSchema, performanceListSchema, performanceSchema } from './performance';
import { pageOf } from './portal';

const T = '企业业绩';

/** Registry entries of enterprise performance (issue 19): public, as the market detail page shows it. */
export const performanceApi = {
  performanceList: {
    ...paths.performanceList,
    summary: '企业业绩列表：审核通过的业绩（公开数据，可按企业、角色、关键字筛选）',
    tag: T,
    auth: false,
    body: performanceListSchema,
    data: pageOf(performanceSchema),
  },
  performance: {
    ...paths.performance,
    summary: '一条企业业绩（审核通过的）',
    tag: T,
    auth: false,
    body: performanceIdSchema,
    data: performanceSchema,
  },
} as const;
