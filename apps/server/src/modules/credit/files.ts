import { CREDIT_NODE } from '@ks/contracts';
import { requestMemo } from '../../platform/permissions';
import { registerFileReader } from '../files/readers';
import { readsAll } from './access';
import { recordById } from './credit.repo';

/**
 * Credit evidence (files bound to a credit record, node XYGL_XYJL) is read by whoever may read the record: its
 * enterprise, reviewers (administrators and holders of the credit node's 审核) and developers — so a reviewer opens
 * the evidence of the record in front of them. Anyone else: as if the file did not exist.
 */
registerFileReader(CREDIT_NODE, async (db, c, recordId) => {
  const r = await recordById(db, recordId);
  if (!r) return false;
  if (c.enterpriseId !== null && r.r.enterpriseId === c.enterpriseId) return true;
  return readsAll(db, { ...c, memo: requestMemo(c) });
});
