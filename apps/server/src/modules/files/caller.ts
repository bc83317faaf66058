import type { Actor } from '../../platform/oplog';
import type { AuthContext } from '../auth/auth.service';

/** Who calls the files module: the signed-in user, their enterprise, and the actor the operation log names. */
export interface FileCaller {
  id: string;
  loginRoleType: string;
  enterpriseId: string | null;
  actor: Actor;
}

export const callerOf = (auth: AuthContext): FileCaller => ({
  id: auth.user.id,
  loginRoleType: auth.user.loginRoleType,
  enterpriseId: auth.user.enterpriseId ?? null,
  actor: auth.actor,
});
