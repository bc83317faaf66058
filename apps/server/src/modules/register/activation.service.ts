import { REGISTER_MESSAGES as M, REGISTRATION_NODE } from '@ks/contracts';
import { badRequest, conflict } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import * as repo from './register.repo';
import type { RegisterDeps } from './registration.service';
import { GL } from './registration.service';

/**
 * Activation of an approved enterprise (/ks/activate/v1/*): the credit code, the legal representative's name and the
 * legal phone must match one approved registration whose account still waits; then an SMS code to that phone
 * (purpose legal) activates the account. Every mismatch answers the same message, so nothing is learnt about
 * enterprises from trying.
 */

export interface BasicInfo {
  creditCode: string;
  legalPerson: string;
  legalPhone: string;
}

const mismatch = () => badRequest(M.activationMismatch);

export async function verifyBasicInfo(deps: RegisterDeps, input: BasicInfo) {
  const m = await repo.activatable(deps.db, input);
  if (!m) throw mismatch();
  return { enterpriseName: m.registration.name, account: m.user.account };
}

export async function sendActivationCode(deps: RegisterDeps, input: BasicInfo, ip: string) {
  const m = await repo.activatable(deps.db, input);
  if (!m) throw mismatch();
  const sent = await deps.sms.sendCode(input.legalPhone, 'legal', { ip });
  return { resendAfterSeconds: sent.resendAfterSeconds, mode: deps.sms.mode };
}

export async function activate(deps: RegisterDeps, input: BasicInfo & { code: string }, ip: string) {
  const t = deps.now();
  const account = await deps.db.transaction(async (tx) => {
    const m = await repo.activatable(tx, input, true);
    if (!m) throw mismatch();
    // a wrong code is the SMS service's 400 (its attempt counted: that write is its own, outside this transaction)
    await deps.sms.checkCode(tx, input.legalPhone, 'legal', input.code);
    if (!(await repo.activateUser(tx, m.user.id, t))) throw conflict(M.activationMismatch);
    await repo.updateRegistration(tx, m.registration.id, { activatedAt: t });
    await writeOpLog(
      tx,
      { userId: m.user.id, userName: m.user.userName, loginRoleType: 'U', ip },
      {
        glName: GL,
        gnCoding: REGISTRATION_NODE,
        recordId: m.registration.id,
        logbook: `企业账号激活：${m.registration.name}（${m.registration.creditCode}），账号 ${m.user.account}，法定代表人手机短信验证通过`,
      },
    );
    await writeOpLog(
      tx,
      { userId: m.user.id, userName: m.user.userName, loginRoleType: 'U', ip },
      { glName: '账号', recordId: m.user.id, logbook: '企业账号激活' },
    );
    return m.user.account;
  });
  return { account };
}
