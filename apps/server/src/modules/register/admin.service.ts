import {
  type AdminEnterpriseCreate,
  Code,
  creditCodeMessage,
  creditCodeProblem,
  REGISTER_MESSAGES as M,
  registrationPasswordProblem,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/sql';
import { AppError, validationFailed } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { hashPassword } from '../../platform/password';
import * as repo from './register.repo';

/**
 * An administrator registers an enterprise by hand (企业信息 → 登记企业), with its administrator account (active; the
 * password must be changed at the first sign-in). A code of the wrong shape is refused as always; one whose check
 * character fails (genuine codes of early pilot regions do) is accepted only with a reason, which goes into the
 * operation log with the registration.
 */

const conflictOn = (field: string, message: string) =>
  new AppError(409, Code.CONFLICT, message, { fieldErrors: { [field]: [message] } });

export async function adminCreateEnterprise(
  db: Db,
  actor: Actor,
  input: Omit<AdminEnterpriseCreate, 'region' | 'overrideReason'> & { region: string; overrideReason: string | null },
) {
  const code = input.creditCode;
  const problem = creditCodeProblem(code);
  if (problem === 'format') throw validationFailed({ creditCode: [creditCodeMessage('format')] });
  if (problem === 'checkDigit' && !input.overrideReason) {
    throw validationFailed({ overrideReason: [M.overrideReasonRequired], creditCode: [M.creditCodeCheckDigit] });
  }
  const account = input.account.trim().toLowerCase();
  const pwProblem = registrationPasswordProblem(input.password, account);
  if (pwProblem) throw validationFailed({ password: [pwProblem] });
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      if (await repo.creditCodeTaken(tx, code)) throw conflictOn('creditCode', M.creditCodeTaken);
      if (await repo.accountTaken(tx, account)) throw conflictOn('account', M.accountTaken);
      const ent = await repo.insertEnterprise(tx, {
        name: input.name,
        creditCode: code,
        enterpriseType: input.enterpriseType,
        legalPerson: input.legalPerson,
        region: input.region,
        address: input.address,
      });
      const user = await repo.insertUser(tx, {
        account,
        userName: input.legalPerson,
        loginRoleType: 'U',
        passwordHash,
        enterpriseId: ent.id,
        phone: input.legalPhone,
        status: 'active',
        mustChangePassword: true,
      });
      await repo.insertEnterpriseAdmin(tx, ent.id, user.id);
      const override = problem === 'checkDigit';
      await writeOpLog(tx, actor, {
        glName: '企业信息',
        recordId: ent.id,
        logbook:
          `管理员登记企业：${input.name}（${code}），管理员账号 ${account}` +
          (override ? `；统一社会信用代码校验位不符，登记原因：${input.overrideReason}` : ''),
        failInfo: override ? `校验位不符（人工登记）：${input.overrideReason}` : null,
      });
      return { enterpriseId: ent.id, userId: user.id, account };
    });
  } catch (e) {
    if (isUniqueViolation(e, 'enterprises_credit_code_uq')) throw conflictOn('creditCode', M.creditCodeTaken);
    if (isUniqueViolation(e, 'users_account_uq')) throw conflictOn('account', M.accountTaken);
    throw e;
  }
}
