import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  CA_MSG,
  CA_NONCE_TTL_MS,
  type CaBindingsPage,
  type CaBindingsQuery,
  type CaCertInfo,
  type CaConfig,
  type CaNonce,
  type CaRegisterBody,
  type CaSigned,
  Code,
  caExpiryState,
  type LoginResponse,
  loginPlainSchema,
  Msg,
} from '@ks/contracts';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { isUniqueViolation } from '../../db/sql';
import { AppError, badRequest, conflict, forbidden, notFound, parse } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import * as authRepo from '../auth/auth.repo';
import { type AuthContext, type AuthService, actorOf } from '../auth/auth.service';
import * as repo from './ca.repo';
import {
  checkCertificate,
  decodeCertificate,
  holderOf,
  loadTrustStore,
  type ParsedCert,
  signedBy,
  type TrustStore,
} from './cert';

export interface CaDeps {
  db: Db;
  auth: AuthService;
  config: Config['ca'];
  now: () => Date;
}

type Checked = ParsedCert & { creditCode: string };

const GL_NAME = 'CA证书';
const dateText = (d: Date) => d.toISOString().slice(0, 10);

/** The trusted roots of CA_TRUSTED_ROOTS, read once at start-up; a file that cannot be read stops the start. */
export function readTrustStore(file: string | null): TrustStore | null {
  if (!file) return null;
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`CA_TRUSTED_ROOTS: cannot read ${file} (${(e as Error).message})`);
  }
  return loadTrustStore(pem, file);
}

export function createCaService(deps: CaDeps) {
  const { db, auth, now } = deps;
  const store = readTrustStore(deps.config.trustedRoots);

  function configInfo(): CaConfig {
    if (!store) return { enabled: false, agentUrl: deps.config.agentUrl, message: CA_MSG.notConfigured };
    if (!deps.config.agentUrl) return { enabled: true, agentUrl: null, message: CA_MSG.agentNotConfigured };
    return { enabled: true, agentUrl: deps.config.agentUrl, message: null };
  }

  function requireStore(): TrustStore {
    if (!store) throw new AppError(503, 503, CA_MSG.notConfigured);
    return store;
  }

  async function issueNonce(): Promise<CaNonce> {
    requireStore();
    const t = now();
    const nonce = randomUUID();
    const expiresAt = new Date(t.getTime() + CA_NONCE_TTL_MS);
    await repo.insertNonce(db, nonce, expiresAt);
    if (Math.random() < 0.02) await repo.deleteStaleNonces(db, t);
    return { nonce, expiresAt: expiresAt.toISOString() };
  }

  /** Spends the nonce (it is gone afterwards whatever follows); 400 when unknown, spent, or expired. */
  async function spendNonce(nonce: string, t: Date): Promise<void> {
    const expiresAt = await repo.consumeNonce(db, nonce);
    if (!expiresAt) throw badRequest(CA_MSG.nonceUsed, { reason: 'nonce' });
    if (expiresAt.getTime() <= t.getTime()) throw badRequest(CA_MSG.nonceExpired, { reason: 'nonceExpired' });
  }

  /** A certificate that passes every check, and whose key signed the nonce (spent first). */
  async function provenCertificate(body: CaSigned, t: Date): Promise<Checked> {
    const trusted = requireStore();
    await spendNonce(body.nonce, t);
    const cert = checkCertificate(body.certificate, trusted, t);
    const signature = Buffer.from(body.signature.replace(/\s+/g, ''), 'base64');
    if (!signedBy(cert, Buffer.from(body.nonce, 'utf8'), signature)) {
      throw badRequest(CA_MSG.badSignature, { reason: 'signature' });
    }
    return cert;
  }

  async function infoOf(db: DbOrTx, cert: Checked, t: Date): Promise<CaCertInfo> {
    const enterprise = await repo.enterpriseByCreditCode(db, cert.creditCode);
    const binding = await repo.liveBinding(db, cert.fingerprint);
    return {
      holder: holderOf(cert),
      issuer: cert.issuerName,
      serial: cert.serial,
      fingerprint: cert.fingerprint,
      algorithm: cert.algorithm ?? 'RSA',
      notBefore: cert.notBefore.toISOString(),
      notAfter: cert.notAfter.toISOString(),
      creditCode: cert.creditCode,
      enterpriseName: enterprise?.name ?? null,
      registered: Boolean(enterprise),
      bound: Boolean(binding && binding.enterpriseId === enterprise?.id),
      expiry: caExpiryState(cert.notAfter, t),
    };
  }

  /** ent-info: the enterprise a certificate maps to, once the certificate itself checks out. */
  async function entInfo(certificate: string): Promise<CaCertInfo> {
    const t = now();
    const cert = checkCertificate(certificate, requireStore(), t);
    return infoOf(db, cert, t);
  }

  /** The login_attempts account of a certificate's sign-ins: `ca:` and its fingerprint (or the text's digest). */
  function attemptAccount(certificate: string): string {
    let digest: string;
    try {
      digest = createHash('sha256').update(decodeCertificate(certificate)).digest('hex');
    } catch {
      digest = createHash('sha256').update(certificate).digest('hex');
    }
    return `ca:${digest.slice(0, 40)}`;
  }

  /** CA sign-in: a bound certificate signs in as the enterprise user who bound it. */
  async function signIn(body: CaSigned, meta: { ip: string; userAgent: string }): Promise<LoginResponse> {
    requireStore();
    const t = now();
    try {
      const cert = await provenCertificate(body, t);
      const binding = await repo.liveBinding(db, cert.fingerprint);
      if (!binding) throw badRequest(CA_MSG.notBound, { reason: 'notBound' });
      const enterprise = await repo.enterpriseById(db, binding.enterpriseId);
      if (!enterprise || enterprise.creditCode !== cert.creditCode) {
        throw badRequest(CA_MSG.codeMismatch, { reason: 'codeMismatch' });
      }
      const user = await repo.userById(db, binding.userId);
      if (!user || user.enterpriseId !== binding.enterpriseId || user.loginRoleType !== 'U') {
        throw badRequest(CA_MSG.boundUserGone, { reason: 'userGone' });
      }
      if (user.status !== 'active') throw new AppError(403, Code.FORBIDDEN, Msg.ACCOUNT_DISABLED);
      return await auth.openSession(user, meta, t, { logbook: '证书登录', method: 'ca' });
    } catch (e) {
      if (e instanceof AppError) {
        await authRepo.recordAttempt(
          db,
          attemptAccount(body.certificate),
          meta.ip.slice(0, 64),
          false,
          t,
          meta.userAgent,
        );
      }
      throw e;
    }
  }

  /** Records a binding of `cert` to the enterprise, by `user`, with its operation-log row; 409 when already bound. */
  async function insertBinding(
    cert: Checked,
    enterprise: { id: string; name: string },
    user: authRepo.UserRow,
    ip: string | null,
    t: Date,
  ): Promise<void> {
    try {
      await db.transaction(async (tx) => {
        const b = await repo.insertBinding(tx, {
          enterpriseId: enterprise.id,
          userId: user.id,
          fingerprint: cert.fingerprint,
          serial: cert.serial.slice(0, 80),
          issuer: cert.issuer.slice(0, 500),
          subject: cert.subject.slice(0, 500),
          holder: holderOf(cert).slice(0, 200),
          creditCode: cert.creditCode,
          algorithm: cert.algorithm ?? 'RSA',
          notBefore: cert.notBefore,
          notAfter: cert.notAfter,
          certificate: cert.der.toString('base64'),
          boundAt: t,
        });
        await writeOpLog(tx, actorOf(user, ip), {
          glName: GL_NAME,
          recordId: b.id,
          logbook: `绑定证书：${holderOf(cert)}（${enterprise.name}，序列号 ${cert.serial}，有效期至 ${dateText(cert.notAfter)}）`,
        });
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(CA_MSG.alreadyBound);
      throw e;
    }
  }

  /**
   * /caRegister: the enterprise account proven by its password (under the sign-in rules: failures counted, lock,
   * captcha) and the certificate by its signature; the certificate's credit code must be the account's enterprise's.
   */
  async function register(body: CaRegisterBody, meta: { ip: string; userAgent: string }): Promise<CaCertInfo> {
    requireStore();
    const t = now();
    const sealed = await auth.openSealed(body.loginNonce, { logValue: body.logValue, passWord: body.passWord });
    const plain = parse(loginPlainSchema.omit({ loginRoleType: true }), sealed);
    const cert = await provenCertificate(body, t);
    const enterprise = await repo.enterpriseByCreditCode(db, cert.creditCode);
    if (!enterprise) throw badRequest(`${CA_MSG.notRegistered}（统一社会信用代码 ${cert.creditCode}）`);
    if (await repo.liveBinding(db, cert.fingerprint)) throw conflict(CA_MSG.alreadyBound);
    const { user, attemptId } = await auth.checkPassword(
      {
        account: plain.logValue,
        password: plain.passWord,
        loginRoleType: 'U',
        uuid: body.uuid,
        code: body.code,
        userAgent: meta.userAgent,
      },
      meta.ip,
      t,
    );
    // the password was right: the attempt counts as a success whatever follows
    await authRepo.markAttemptSucceeded(db, attemptId);
    if (!user.enterpriseId) throw badRequest(CA_MSG.notEnterpriseAccount);
    if (user.enterpriseId !== enterprise.id) throw badRequest(CA_MSG.codeMismatch);
    await insertBinding(cert, enterprise, user, meta.ip.slice(0, 64), t);
    return infoOf(db, cert, t);
  }

  /** The caller's enterprise (an enterprise user's); 403 for anyone else. */
  async function callersEnterprise(ctx: AuthContext) {
    if (ctx.user.loginRoleType !== 'U') throw forbidden();
    const e = ctx.user.enterpriseId ? await repo.enterpriseById(db, ctx.user.enterpriseId) : undefined;
    if (!e) throw forbidden(CA_MSG.noEnterprise);
    return e;
  }

  /** /lock: a signed-in enterprise user binds a certificate of their own enterprise. */
  async function bind(ctx: AuthContext, body: CaSigned): Promise<CaCertInfo> {
    requireStore();
    const enterprise = await callersEnterprise(ctx);
    const t = now();
    const cert = await provenCertificate(body, t);
    if (cert.creditCode !== enterprise.creditCode) throw badRequest(CA_MSG.codeMismatch);
    if (await repo.liveBinding(db, cert.fingerprint)) throw conflict(CA_MSG.alreadyBound);
    await insertBinding(cert, enterprise, ctx.user, ctx.actor.ip ?? null, t);
    return infoOf(db, cert, t);
  }

  /** /lock: an enterprise user's bindings, or every enterprise's for administrators. */
  async function list(ctx: AuthContext, q: CaBindingsQuery): Promise<CaBindingsPage> {
    const enterprise = ctx.user.loginRoleType === 'M' ? null : await callersEnterprise(ctx);
    const t = now();
    const { total, records } = await repo.listBindings(db, {
      enterpriseId: enterprise?.id ?? null,
      keyword: q.keyword || undefined,
      expiry: q.expiry,
      now: t,
      offset: (q.pageNum - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return {
      total,
      records: records.map(({ binding: b, enterpriseName, boundBy }) => ({
        id: b.id,
        enterpriseId: b.enterpriseId,
        enterpriseName,
        creditCode: b.creditCode,
        holder: b.holder,
        issuer: b.issuer.match(/^CN=([^,]+)/)?.[1] ?? b.issuer,
        serial: b.serial,
        fingerprint: b.fingerprint,
        algorithm: b.algorithm as CaCertInfo['algorithm'],
        notBefore: new Date(b.notBefore).toISOString(),
        notAfter: new Date(b.notAfter).toISOString(),
        expiry: caExpiryState(b.notAfter, t),
        boundBy,
        boundAt: new Date(b.boundAt).toISOString(),
      })),
    };
  }

  /** Ends a binding: administrators any, enterprise users their enterprise's (else 404); an operation-log row. */
  async function unbind(ctx: AuthContext, id: string): Promise<void> {
    const own = ctx.user.loginRoleType === 'M' ? null : await callersEnterprise(ctx);
    const b = await repo.liveBindingById(db, id);
    if (!b || (own && b.enterpriseId !== own.id)) throw notFound(CA_MSG.bindingNotFound);
    const t = now();
    await db.transaction(async (tx) => {
      if (!(await repo.unbind(tx, id, ctx.user.id, t))) throw notFound(CA_MSG.bindingNotFound);
      await writeOpLog(tx, ctx.actor, {
        glName: GL_NAME,
        recordId: id,
        logbook: `解除证书绑定：${b.holder}（序列号 ${b.serial}）`,
      });
    });
  }

  return { configInfo, issueNonce, entInfo, signIn, register, bind, list, unbind };
}

export type CaService = ReturnType<typeof createCaService>;
