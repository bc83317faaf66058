import {
  Code,
  idNumberInputProblem,
  REGISTER_MESSAGES as M,
  maskIdNumber,
  registrationPasswordProblem,
  type UserRegister,
} from '@ks/contracts';
import { isUniqueViolation } from '../../db/sql';
import { AppError, validationFailed } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { hashPassword } from '../../platform/password';
import * as repo from './register.repo';
import { decryptPassword, type RegisterDeps } from './registration.service';

/**
 * Real-name registration of an individual (/realName, `user-register`): name, resident ID number (GB 11643: shape,
 * birth date, not in the future, check digit — each with its own message), a phone proved by SMS (purpose realname)
 * and an account with a password under the platform's rule. The spec names no review for individuals, so the account
 * can sign in at once (企业/个人 tab). The ID number is unique and only ever answered masked.
 */

const conflictOn = (field: string, message: string) =>
  new AppError(409, Code.CONFLICT, message, { fieldErrors: { [field]: [message] } });

export async function registerPerson(deps: RegisterDeps, input: UserRegister, ip: string) {
  const { db } = deps;
  const idNumber = input.idNumber.trim().toUpperCase();
  const idProblem = idNumberInputProblem(idNumber);
  if (idProblem) throw validationFailed({ idNumber: [idProblem] });
  const account = input.account.trim().toLowerCase();
  const password = await decryptPassword(deps.auth, input.password);
  const pwProblem = registrationPasswordProblem(password, account);
  if (pwProblem) throw validationFailed({ password: [pwProblem] });
  if (await repo.idNumberTaken(db, idNumber)) throw conflictOn('idNumber', M.idNumberTaken);
  if (await repo.accountTaken(db, account)) throw conflictOn('account', M.accountTaken);
  const passwordHash = await hashPassword(password);
  const t = deps.now();
  try {
    const user = await db.transaction(async (tx) => {
      if (await repo.idNumberTaken(tx, idNumber)) throw conflictOn('idNumber', M.idNumberTaken);
      if (await repo.accountTaken(tx, account)) throw conflictOn('account', M.accountTaken);
      await deps.sms.consumeProof(tx, input.phone, 'realname', input.proof);
      const u = await repo.insertUser(tx, {
        account,
        userName: input.realName,
        loginRoleType: 'U',
        passwordHash,
        phone: input.phone,
        status: 'active',
        createdAt: t,
        updatedAt: t,
      });
      await repo.insertRealName(tx, { userId: u.id, realName: input.realName, idNumber, verifiedPhone: input.phone });
      await writeOpLog(
        tx,
        { userId: u.id, userName: u.userName, loginRoleType: 'U', ip },
        {
          glName: '账号',
          recordId: u.id,
          logbook: `个人实名注册：${input.realName}（身份证号 ${maskIdNumber(idNumber)}），账号 ${account}，手机已短信验证`,
        },
      );
      return u;
    });
    return { account: user.account, userName: user.userName, idNumber: maskIdNumber(idNumber) };
  } catch (e) {
    if (isUniqueViolation(e, 'real_name_users_id_number_uq')) throw conflictOn('idNumber', M.idNumberTaken);
    if (isUniqueViolation(e, 'users_account_uq')) throw conflictOn('account', M.accountTaken);
    throw e;
  }
}
