import type { Db } from '../../db/client';
import type { Storage } from '../../platform/storage';
import type { EngineCaller } from '../engine/record-access';

/** What the evaluation's services need, and who calls them (the service and the results share these). */
export interface EvalDeps {
  db: Db;
  storage: Storage;
  now: () => Date;
  tz: string;
}
export type EvalCaller = EngineCaller;
