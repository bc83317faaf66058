import { z } from './zod';

/** Why a verification of the opening-and-evaluation log failed (see the server's modules/ledger). */
export const LEDGER_BREAK_REASONS = ['missing', 'prev', 'hash', 'head', 'anchor'] as const;

export const ledgerVerificationSchema = z.object({
  intact: z.boolean(),
  /** entries checked, from the first, up to the first break */
  checked: z.number(),
  headSeq: z.number(),
  headHash: z.string(),
  anchors: z.number(),
  broken: z.object({ seq: z.number(), reason: z.enum(LEDGER_BREAK_REASONS), message: z.string() }).nullable(),
  checkedAt: z.string(),
});
export type LedgerVerification = z.infer<typeof ledgerVerificationSchema>;

export const ledgerAnchorSchema = z.object({
  /** the centre's calendar date whose end the anchor marks */
  day: z.string(),
  seq: z.number(),
  hash: z.string(),
  publishedAt: z.string(),
});
export type LedgerAnchor = z.infer<typeof ledgerAnchorSchema>;

export const ledgerAnchorsQuerySchema = z.object({
  limit: z.coerce.number({ error: '条数须为 1–366 的整数' }).int().min(1).max(366).default(30),
});
