import { createHmac, randomBytes, randomInt } from 'node:crypto';
import {
  type SmsPurpose as ContractSmsPurpose,
  formatIn,
  isValidMobile,
  SMS_ANONYMOUS_PURPOSES,
  SMS_CODE_TTL_SECONDS,
  SMS_DAILY_LIMIT,
  SMS_MAX_ATTEMPTS,
  SMS_PROOF_TTL_SECONDS,
  SMS_RESEND_SECONDS,
  SMS_SIGNED_IN_PURPOSES,
  SmsMsg,
  smsWaitMessage,
} from '@ks/contracts';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { constantTime } from '../../platform/crypto';
import { AppError, badRequest, tooMany, unauthorized, validationFailed } from '../../platform/errors';
import type { SmsSender } from '../../platform/integrations/sms';
import { providerSender } from './sms.providers';
import * as repo from './sms.repo';

export type SmsPurpose = ContractSmsPurpose;
export type { SmsSender };

export interface SmsService {
  /** provider: a real provider sends; outbox: codes go to the dev outbox (never in production); off: SMS disabled */
  readonly mode: 'provider' | 'outbox' | 'off';
  /** Sends a fresh 6-digit code for (phone, purpose). Limits per phone (all purposes together): one per 60 s
   *  (429 '请在 N 秒后重新获取验证码'), at most 10 per day in the platform time zone (429). mode off → 503
   *  '短信服务未开通，…'. Invalid mobile (isValidMobile from @ks/contracts) → 400. Answers seconds until next allowed. */
  sendCode(
    phone: string,
    purpose: SmsPurpose,
    meta?: {
      ip?: string;
      userId?: string;
      /**
       * Store the code (so the limits apply and the answer is the same) but send nothing: for steps that must not
       * reveal whether a phone belongs to an account (password reset, SMS sign-in).
       */
      silent?: boolean;
    },
  ): Promise<{ resendAfterSeconds: number }>;
  /** Checks the latest live code of (phone, purpose): valid 5 minutes; compared in constant time against its stored
   *  hash (HMAC-SHA256 with a server secret kept in app settings, never the plain code); a wrong code counts an
   *  attempt, the 5th wrong attempt voids the code ('验证码错误次数过多，请重新获取'); expired → '验证码已过期，请重新获取';
   *  none → '请先获取验证码'; wrong → '验证码错误'. All 400 with fieldErrors { code: [...] }. On success the code is
   *  spent and a single-use PROOF is answered (random, stored hashed, valid 15 minutes) that a later step presents. */
  verifyCode(phone: string, purpose: SmsPurpose, code: string): Promise<{ proof: string }>;
  /** Spends a proof inside the caller's transaction (tx: DbOrTx from db/client). Wrong/used/expired/other phone or
   *  purpose → 400 '手机验证已失效，请重新验证'. */
  consumeProof(tx: DbOrTx, phone: string, purpose: SmsPurpose, proof: string): Promise<void>;
  /** Convenience: verify a code and spend the proof in one go inside tx (for single-step forms). */
  checkCode(tx: DbOrTx, phone: string, purpose: SmsPurpose, code: string): Promise<void>;
  /**
   * `POST /ks/common/send-sms`: who may ask a code for which purpose. register/legal/realname: anyone; phone/verify:
   * a signed-in caller (401 else), `verify` only to the caller's own phone; reset/login have their own endpoints.
   */
  sendForCaller(
    caller: { userId: string; phone: string | null } | null,
    phone: string,
    purpose: SmsPurpose,
    ip?: string,
  ): Promise<{ resendAfterSeconds: number }>;
  /** The developers' outbox (newest first, 50), or null when it is not offered (provider/off mode, production). */
  outbox(phone?: string): Promise<
    | {
        id: number;
        phone: string;
        template: string;
        params: Record<string, string>;
        text: string;
        createdAt: string;
      }[]
    | null
  >;
}

/** The app setting that holds the server secret codes and proofs are hashed with. */
export const SMS_SECRET_SETTING = 'sms.hmacKey';

/** The message as the user reads it (the outbox shows this; a provider renders its approved template). */
export function smsText(signName: string, params: Record<string, string>): string {
  return `【${signName}】您的验证码为 ${params.code ?? ''}，${SMS_CODE_TTL_SECONDS / 60} 分钟内有效，请勿泄露给他人。如非本人操作，请忽略本短信。`;
}

/** The sender that writes the developers' outbox (in the caller's transaction when it gives one). */
export function createOutboxSender(db: Db, signName: string, now: () => Date = () => new Date()): SmsSender {
  return {
    async send(phone, templateId, params, ctx) {
      await repo.insertOutbox(ctx?.tx ?? db, {
        phone,
        template: templateId,
        params,
        text: smsText(signName, params),
        createdAt: now(),
      });
    },
  };
}

type Problem = 'none' | 'expired' | 'too-many' | 'wrong';

const codeError = (p: Problem) =>
  validationFailed({
    code: [
      {
        none: SmsMsg.CODE_NONE,
        expired: SmsMsg.CODE_EXPIRED,
        'too-many': SmsMsg.CODE_TOO_MANY,
        wrong: SmsMsg.CODE_WRONG,
      }[p],
    ],
  });

const proofError = () => validationFailed({ proof: [SmsMsg.PROOF_INVALID] });

export function createSmsService(deps: { db: Db; config: Config; sender?: SmsSender; now?: () => Date }): SmsService {
  const { db, config } = deps;
  const now = deps.now ?? (() => new Date());
  const provider = config.sms.provider;
  const mode: SmsService['mode'] =
    provider === 'off'
      ? 'off'
      : provider === 'outbox' && !config.production
        ? 'outbox'
        : provider === 'outbox'
          ? 'off'
          : 'provider';
  const signName = config.sms.signName || config.platformName;
  let sender: SmsSender | null = deps.sender ?? null;
  if (!sender && mode === 'outbox') sender = createOutboxSender(db, signName, now);
  const senderPromise: Promise<SmsSender> | null = sender
    ? Promise.resolve(sender)
    : mode === 'provider'
      ? Promise.resolve(providerSender(config.sms))
      : null;

  let secretP: Promise<Buffer> | null = null;
  /** The hashing secret: made once and kept in app settings (every process shares it). */
  async function readSecret(via: DbOrTx): Promise<Buffer> {
    return Buffer.from(await repo.secretOf(via, SMS_SECRET_SETTING, randomBytes(32).toString('hex')), 'hex');
  }
  function secret(tx?: DbOrTx): Promise<Buffer> {
    if (secretP) return secretP;
    // read inside a caller's transaction: not kept, since that transaction may yet roll back a fresh secret
    if (tx) return readSecret(tx);
    secretP = readSecret(db).catch((e) => {
      secretP = null;
      throw e;
    });
    return secretP;
  }
  const hmac = (key: Buffer, value: string) => createHmac('sha256', key).update(value, 'utf8').digest('hex');

  /** Midnight of the instant's day in the platform's zone. */
  function dayStart(t: Date): Date {
    const [h, m, s, ms] = formatIn(t, 'HH:mm:ss:SSS', config.timeZone).split(':').map(Number);
    return new Date(t.getTime() - (((h ?? 0) * 60 + (m ?? 0)) * 60 + (s ?? 0)) * 1000 - (ms ?? 0));
  }

  async function sendCode(
    phone: string,
    purpose: SmsPurpose,
    meta: { ip?: string; userId?: string; silent?: boolean } = {},
  ): Promise<{ resendAfterSeconds: number }> {
    if (mode === 'off' || !senderPromise) throw new AppError(503, 503, SmsMsg.OFF);
    if (!isValidMobile(phone)) throw validationFailed({ phone: [SmsMsg.PHONE_INVALID] });
    const send = await senderPromise;
    const key = await secret();
    const t = now();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await db.transaction(async (tx) => {
      await repo.serialisePhone(tx, phone);
      const latest = await repo.latestSent(tx, phone);
      const waitMs = latest ? SMS_RESEND_SECONDS * 1000 - (t.getTime() - latest.getTime()) : 0;
      if (waitMs > 0) {
        const seconds = Math.ceil(waitMs / 1000);
        throw tooMany(smsWaitMessage(seconds), { resendAfterSeconds: seconds });
      }
      const today = dayStart(t);
      const { count } = await repo.sentSince(tx, phone, today);
      if (count >= SMS_DAILY_LIMIT) {
        const tomorrow = dayStart(new Date(today.getTime() + 36 * 3600_000));
        throw tooMany(SmsMsg.DAILY_LIMIT, {
          resendAfterSeconds: Math.ceil((tomorrow.getTime() - t.getTime()) / 1000),
        });
      }
      await repo.voidLive(tx, phone, purpose, t);
      await repo.insertCode(tx, {
        phone,
        purpose,
        codeHash: hmac(key, code),
        createdAt: t,
        expiresAt: new Date(t.getTime() + SMS_CODE_TTL_SECONDS * 1000),
        ip: meta.ip?.slice(0, 64) ?? null,
        userId: meta.userId ?? null,
      });
      // last: a provider failure rolls the code back, so it does not count
      if (!meta.silent) await send.send(phone, config.sms.templateCode, { code }, { tx });
    });
    return { resendAfterSeconds: SMS_RESEND_SECONDS };
  }

  /** What is wrong with a code against the newest code row of its phone and purpose (null: it is right). */
  function problemOf(key: Buffer, row: repo.SmsCodeRow | null, code: string, t: Date): Problem | null {
    if (!row || row.spentAt) return 'none';
    if (row.voidedAt) return row.attempts >= SMS_MAX_ATTEMPTS ? 'too-many' : 'none';
    if (row.expiresAt.getTime() <= t.getTime()) return 'expired';
    const given = Buffer.from(hmac(key, String(code).trim()), 'hex');
    const stored = Buffer.from(row.codeHash, 'hex');
    if (!constantTime.equal(given, stored)) return 'wrong';
    return null;
  }

  async function verifyCode(phone: string, purpose: SmsPurpose, code: string): Promise<{ proof: string }> {
    const key = await secret();
    const t = now();
    const outcome = await db.transaction(async (tx): Promise<Problem | { proof: string }> => {
      const row = await repo.latestCode(tx, phone, purpose, true);
      const problem = problemOf(key, row, code, t);
      if (problem === 'wrong' && row) {
        const attempts = await repo.countWrong(tx, row.id, SMS_MAX_ATTEMPTS, t);
        return attempts !== null && attempts >= SMS_MAX_ATTEMPTS ? 'too-many' : 'wrong';
      }
      if (problem || !row) return problem ?? 'none';
      const proof = randomBytes(32).toString('base64url');
      const spent = await repo.spendCode(
        tx,
        row.id,
        t,
        { hash: hmac(key, proof), expiresAt: new Date(t.getTime() + SMS_PROOF_TTL_SECONDS * 1000) },
        SMS_MAX_ATTEMPTS,
      );
      return spent ? { proof } : 'none';
    });
    if (typeof outcome === 'string') throw codeError(outcome);
    return outcome;
  }

  async function consumeProof(tx: DbOrTx, phone: string, purpose: SmsPurpose, proof: string): Promise<void> {
    if (typeof proof !== 'string' || !proof || proof.length > 200) throw proofError();
    const key = await secret(tx);
    if (!(await repo.spendProof(tx, phone, purpose, hmac(key, proof), now()))) throw proofError();
  }

  async function checkCode(tx: DbOrTx, phone: string, purpose: SmsPurpose, code: string): Promise<void> {
    const key = await secret(tx);
    const t = now();
    const row = await repo.latestCode(tx, phone, purpose);
    const problem = problemOf(key, row, code, t);
    if (problem === 'wrong' && row) {
      // counted outside the caller's transaction, which the error rolls back: issued now, so it runs before any
      // later check of this code (PGlite queues it behind the transaction; PostgreSQL runs it on another connection)
      db.transaction((own) => repo.countWrong(own, row.id, SMS_MAX_ATTEMPTS, t)).catch(() => undefined);
      throw codeError(row.attempts + 1 >= SMS_MAX_ATTEMPTS ? 'too-many' : 'wrong');
    }
    if (problem || !row) throw codeError(problem ?? 'none');
    if (!(await repo.spendCode(tx, row.id, t, null, SMS_MAX_ATTEMPTS))) throw codeError('none');
  }

  async function sendForCaller(
    caller: { userId: string; phone: string | null } | null,
    phone: string,
    purpose: SmsPurpose,
    ip?: string,
  ): Promise<{ resendAfterSeconds: number }> {
    if (SMS_ANONYMOUS_PURPOSES.includes(purpose)) {
      return sendCode(phone, purpose, { ip, ...(caller ? { userId: caller.userId } : {}) });
    }
    if (SMS_SIGNED_IN_PURPOSES.includes(purpose)) {
      if (!caller) throw unauthorized(undefined, SmsMsg.PURPOSE_SIGNED_IN);
      if (purpose === 'verify' && caller.phone !== phone) {
        throw badRequest(SmsMsg.VERIFY_OWN_PHONE, { fieldErrors: { phone: [SmsMsg.VERIFY_OWN_PHONE] } });
      }
      return sendCode(phone, purpose, { ip, userId: caller.userId });
    }
    throw badRequest(SmsMsg.PURPOSE_OTHER, { fieldErrors: { purpose: [SmsMsg.PURPOSE_OTHER] } });
  }

  async function outbox(phone?: string) {
    if (mode !== 'outbox' || config.production) return null;
    const rows = await repo.outbox(db, phone || undefined, 50);
    return rows.map((r) => ({
      id: r.id,
      phone: r.phone,
      template: r.template,
      params: r.params,
      text: r.text,
      createdAt: r.createdAt.toISOString(),
    }));
  }

  return { mode, sendCode, verifyCode, consumeProof, checkCode, sendForCaller, outbox };
}
