import type { Db } from '../../db/client';
import type { Storage } from '../../platform/storage';
import type { AuthContext } from '../auth/auth.service';
import type { EngineCaller } from '../engine/record-access';

/** What the evaluation's services need, and who calls them (the service and the results share these). */
export interface EvalDeps {
  db: Db;
  storage: Storage;
  now: () => Date;
  tz: string;
}
export type EvalCaller = EngineCaller;

/** The caller of an evaluation, opening-supervision or console request, from its session. */
export const callerOf = (auth: AuthContext): EvalCaller => ({
  id: auth.user.id,
  loginRoleType: auth.user.loginRoleType,
  enterpriseId: auth.user.enterpriseId ?? null,
  actor: auth.actor,
});
