import {
  AccountMsg,
  describeUserAgent,
  Msg,
  maskPhone,
  type PhoneState,
  type ResetSecretRequest,
  type SecretTime,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import { rsaDecrypt } from '../../platform/crypto';
import { badRequest, conflict, validationFailed } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { checkNewPassword, hashPassword, passwordProblem } from '../../platform/password';
import * as auth from '../auth/auth.repo';
import { type AuthContext, type AuthService, actorOf } from '../auth/auth.service';
import type { SmsService } from '../sms/sms.service';
import * as repo from './account-centre.repo';

export interface AccountCentreDeps {
  db: Db;
  auth: AuthService;
  sms: SmsService;
  passwordMaxAgeDays: number;
  now: () => Date;
}

const DAY_MS = 86_400_000;

export function createAccountCentre(deps: AccountCentreDeps) {
  const { db, sms } = deps;

  /**
   * A code for a step that must not tell whether the phone has an account: the same answer and the same limits
   * either way, the message sent only when it does.
   */
  async function quietCode(phone: string, purpose: 'reset' | 'login', ip: string) {
    const owners = await auth.activeUsersByPhone(db, phone);
    return sms.sendCode(phone, purpose, { ip, silent: owners.length === 0 });
  }

  /** Set a new password with an SMS proof of the account's phone; every session of the account ends. */
  async function resetSecret(body: ResetSecretRequest, ip: string): Promise<void> {
    const { privateKey } = await deps.auth.loginKeys();
    const password = rsaDecrypt(privateKey, body.newPassword);
    if (password === null) throw validationFailed({ newPassword: [Msg.DECRYPT_FAILED] }, Msg.DECRYPT_FAILED);
    const basic = passwordProblem(password, body.account);
    if (basic) throw validationFailed({ newPassword: [basic] });
    const hash = await hashPassword(password);
    const t = deps.now();
    await db.transaction(async (tx) => {
      await sms.consumeProof(tx, body.phone, 'reset', body.proof);
      const account = body.account?.trim().toLowerCase();
      const owners = (await auth.activeUsersByPhone(tx, body.phone)).filter((u) => !account || u.account === account);
      if (owners.length === 0) throw validationFailed({ account: [AccountMsg.RESET_NO_MATCH] });
      if (owners.length > 1) throw validationFailed({ account: [AccountMsg.RESET_MANY_ACCOUNTS] });
      const user = owners[0]!;
      await checkNewPassword(tx, user, password);
      await auth.setPassword(tx, user.id, hash, t);
      await repo.setPhoneVerified(tx, user.id, t);
      await auth.revokeUserSessions(tx, user.id, 'password', t);
      await writeOpLog(tx, actorOf(user, ip.slice(0, 64)), {
        glName: '账号',
        recordId: user.id,
        logbook: `通过短信验证（${maskPhone(body.phone)}）找回密码，已退出该账号的全部登录`,
      });
    });
  }

  async function phoneState(ctx: AuthContext): Promise<PhoneState> {
    const u = await repo.userById(db, ctx.user.id);
    return {
      hasPhone: Boolean(u?.phone),
      verified: Boolean(u?.phone && u.phoneVerifiedAt),
      maskedPhone: maskPhone(u?.phone),
    };
  }

  /** The new phone, proven by a 'phone' code sent to it. */
  async function updatePhone(ctx: AuthContext, body: { phone: string; proof: string }): Promise<PhoneState> {
    const before = await repo.userById(db, ctx.user.id);
    if (before?.phone === body.phone) throw validationFailed({ phone: [AccountMsg.PHONE_SAME] });
    const t = deps.now();
    await db.transaction(async (tx) => {
      await sms.consumeProof(tx, body.phone, 'phone', body.proof);
      if (await repo.phoneTakenByOther(tx, body.phone, ctx.user.id)) {
        throw Object.assign(conflict(AccountMsg.PHONE_TAKEN), {
          data: { fieldErrors: { phone: [AccountMsg.PHONE_TAKEN] } },
        });
      }
      await repo.setPhone(tx, ctx.user.id, body.phone, t);
      await auth.announceAuthChange(tx);
      await writeOpLog(tx, ctx.actor, {
        glName: '账号',
        recordId: ctx.user.id,
        logbook: `更换手机号：${maskPhone(before?.phone) ?? '（未绑定）'} → ${maskPhone(body.phone)}`,
      });
    });
    return phoneState(ctx);
  }

  /** The caller's current phone, proven by a 'verify' code. */
  async function verifyPhone(ctx: AuthContext, code: string): Promise<PhoneState> {
    const u = await repo.userById(db, ctx.user.id);
    if (!u?.phone) throw badRequest(AccountMsg.PHONE_NONE);
    const phone = u.phone;
    const t = deps.now();
    await db.transaction(async (tx) => {
      await sms.checkCode(tx, phone, 'verify', code);
      await repo.setPhoneVerified(tx, ctx.user.id, t);
      await writeOpLog(tx, ctx.actor, {
        glName: '账号',
        recordId: ctx.user.id,
        logbook: `验证手机号：${maskPhone(phone)}`,
      });
    });
    return phoneState(ctx);
  }

  async function secretTime(ctx: AuthContext): Promise<SecretTime> {
    const u = await repo.userById(db, ctx.user.id);
    const since = u?.passwordChangedAt ?? u?.createdAt ?? deps.now();
    const days = Math.max(0, Math.floor((deps.now().getTime() - since.getTime()) / DAY_MS));
    const maxDays = deps.passwordMaxAgeDays;
    return { mustChange: Boolean(u?.mustChangePassword) || (maxDays > 0 && days >= maxDays), days, maxDays };
  }

  async function logHistory(ctx: AuthContext, q: { page: number; pageSize: number }) {
    const { records, total } = await auth.loginHistory(db, ctx.user.account, (q.page - 1) * q.pageSize, q.pageSize);
    return {
      records: records.map((r) => ({
        at: new Date(r.at).toISOString(),
        ip: r.ip,
        device: describeUserAgent(r.userAgent),
        success: r.success,
      })),
      total,
    };
  }

  return { quietCode, resetSecret, phoneState, updatePhone, verifyPhone, secretTime, logHistory };
}
