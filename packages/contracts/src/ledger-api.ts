import { ledgerAnchorSchema, ledgerAnchorsQuerySchema, ledgerVerificationSchema } from './ledger';
import { paths } from './paths';
import { z } from './zod';

const T = '开评标日志';

/** Registry entries of the tamper-evident log of opening and evaluation (issue 17). */
export const ledgerApi = {
  ledgerVerify: {
    ...paths.ledgerVerify,
    summary:
      '校验开评标日志：从第 1 条起逐条重算哈希与前序哈希，并与每日公布的锚点核对；intact 为 false 时 broken 指出第一条不符的记录及原因。公开，不含日志内容',
    tag: T,
    auth: false,
    data: ledgerVerificationSchema,
  },
  ledgerAnchors: {
    ...paths.ledgerAnchors,
    summary: '每日公布的日志锚点（当日结束时日志末条的序号与哈希），新的在前。公开',
    tag: T,
    auth: false,
    query: ledgerAnchorsQuerySchema,
    data: z.object({ records: z.array(ledgerAnchorSchema) }),
  },
} as const;
