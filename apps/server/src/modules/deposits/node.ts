import { GUARANTEE_NODE } from '@ks/contracts';
import { z } from 'zod';
import { nodeAccessor } from '../engine/accessor';

/**
 * 保函申请 (DZBH_BHSQ, system 电子保函): a bid guarantee application is a record of this engine node — its form,
 * attachments, review and to-dos come from the engine. The deposits module creates the draft (prefilled from the
 * section) and reads back what it checks when the review passes.
 */
const text = z.string().nullable();
export const bhsq = nodeAccessor(GUARANTEE_NODE, {
  xmmc: text,
  bdmc: text,
  sqdwdm: text,
  bhlx: text,
  bhje: z.number().nullable(),
  yxq: z.union([z.string(), z.array(z.string())]).nullable(),
  kbsj: text,
  sqrq: text,
  dbjg: text,
  lxr: text,
  lxdh: text,
});
