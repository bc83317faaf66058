import { randomInt } from 'node:crypto';
import {
  Code,
  creditCodeMessage,
  creditCodeProblem,
  formatIn,
  REGISTER_MESSAGES as M,
  Msg,
  REGISTRATION_NODE,
  REGISTRATION_STATUS_LABELS,
  type RegistrationProgress,
  type RegistrationStatus,
  type RegistrationSubmit,
  registrationPasswordProblem,
} from '@ks/contracts';
import type { Db, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/sql';
import { rsaDecrypt } from '../../platform/crypto';
import { AppError, badRequest, conflict, notFound, tooMany, validationFailed } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { hashPassword } from '../../platform/password';
import { requestMemo } from '../../platform/permissions';
import type { AuthService } from '../auth/auth.service';
import { onDecision } from '../engine/hooks';
import { type EngineCaller, policyContext } from '../engine/record-access';
import { submitInTx } from '../engine/review.service';
import { nodeForEngine } from '../engine/schema.repo';
import { sendUserMessages } from '../messages/send';
import type { SmsService } from '../sms/sms.service';
import { applicantUser, qyzc } from './node';
import * as repo from './register.repo';

/**
 * Enterprise self-registration (issue 15): an anonymous visitor checks the credit code, proves the legal
 * representative's phone by SMS, uploads the business licence and submits; the application becomes a record of the
 * engine node 企业注册审核 (same id), submitted for review, so administrators get a to-do. The final pass creates the
 * enterprise and its administrator account (inactive until the enterprise activates it, activation.service); a
 * rejection keeps the reviewer's reason for the progress lookup, and the code is free for a new application.
 */

export const GL = '企业注册';
/** At most this many applications from one address per hour. */
export const SUBMISSIONS_PER_HOUR = 20;

export interface RegisterDeps {
  db: Db;
  auth: AuthService;
  sms: SmsService;
  now: () => Date;
}

const notConfigured = () => new AppError(503, Code.BAD_REQUEST, M.nodeMissing);

/** The refusal of a credit code that is not one (format, check character), on the field. */
export function refuseCreditCode(code: string, field = 'creditCode'): void {
  const p = creditCodeProblem(code);
  if (p) throw validationFailed({ [field]: [creditCodeMessage(p)] });
}

/** `enterprise/verify`: a valid code, and only whether it is taken. */
export async function verifyCreditCode(db: Db, creditCode: string) {
  refuseCreditCode(creditCode);
  return { creditCode, registered: await repo.creditCodeTaken(db, creditCode) };
}

/** Decrypts a password sent under the login public key (no label); a ciphertext that does not open is a 400. */
export async function decryptPassword(auth: AuthService, cipher: string, field = 'password'): Promise<string> {
  const { privateKey } = await auth.loginKeys();
  const plain = rsaDecrypt(privateKey, cipher);
  if (plain === null) throw validationFailed({ [field]: [Msg.DECRYPT_FAILED] });
  return plain;
}

/** ZC + the day (platform zone) + 6 random digits, unique. */
async function newApplicationNo(db: Db, at: Date): Promise<string> {
  const day = formatIn(at, 'YYYYMMDD');
  for (let i = 0; i < 8; i++) {
    const no = `ZC${day}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
    if (!(await repo.applicationNoExists(db, no))) return no;
  }
  throw conflict('申请编号生成失败，请重新提交');
}

const conflictOn = (field: string, message: string) =>
  new AppError(409, Code.CONFLICT, message, { fieldErrors: { [field]: [message] } });

/** A unique index the database held against a submission that raced another one. */
function uniqueConflict(e: unknown): AppError | null {
  if (
    isUniqueViolation(e, 'enterprise_registrations_live_code_uq') ||
    isUniqueViolation(e, 'enterprises_credit_code_uq')
  ) {
    return conflictOn('creditCode', M.creditCodeTaken);
  }
  if (isUniqueViolation(e, 'enterprise_registrations_pending_account_uq') || isUniqueViolation(e, 'users_account_uq')) {
    return conflictOn('account', M.accountTaken);
  }
  return null;
}

export async function submitRegistration(
  deps: RegisterDeps,
  input: Omit<RegistrationSubmit, 'region'> & { region: string },
  ip: string,
): Promise<{ id: string; applicationNo: string; status: RegistrationStatus }> {
  const { db } = deps;
  const code = input.creditCode;
  refuseCreditCode(code);
  const account = input.account.trim().toLowerCase();
  const password = await decryptPassword(deps.auth, input.password);
  const pwProblem = registrationPasswordProblem(password, account);
  if (pwProblem) throw validationFailed({ password: [pwProblem] });
  const types = await repo.knownEnterpriseTypes(db);
  if (types.length && !types.includes(input.enterpriseType)) {
    throw validationFailed({ enterpriseType: [M.enterpriseTypeUnknown] });
  }
  const t = deps.now();
  if ((await repo.submissionsFrom(db, ip.slice(0, 64), new Date(t.getTime() - 3600_000))) >= SUBMISSIONS_PER_HOUR) {
    throw tooMany('提交过于频繁，请稍后再试');
  }
  // cheap refusals before the slow hash; all of them are checked again inside the transaction
  if (await repo.creditCodeTaken(db, code)) throw conflictOn('creditCode', M.creditCodeTaken);
  if (await repo.accountTaken(db, account)) throw conflictOn('account', M.accountTaken);
  const node = await nodeForEngine(db, REGISTRATION_NODE).catch(() => null);
  if (!node || node.fieldsVersion === 0) throw notConfigured();
  const caller = await applicantCaller(db, input.contactName, ip);
  const ctx = await policyContext(db, caller, REGISTRATION_NODE);
  const passwordHash = await hashPassword(password);
  const applicationNo = await newApplicationNo(db, t);
  try {
    return await db.transaction(async (tx) => {
      if (await repo.creditCodeTaken(tx, code)) throw conflictOn('creditCode', M.creditCodeTaken);
      if (await repo.accountTaken(tx, account)) throw conflictOn('account', M.accountTaken);
      const licence = await repo.unboundLicence(tx, input.licenceFileId, caller.id, REGISTRATION_NODE);
      if (!licence) throw validationFailed({ licenceFileId: [M.licenceInvalid] });
      // the phone proof is spent here: any refusal after it rolls it back with everything else
      await deps.sms.consumeProof(tx, input.legalPhone, 'legal', input.legalProof);
      const reg = await createApplication(tx, caller, node, ctx, {
        ...input,
        creditCode: code,
        account,
        passwordHash,
        licenceFileId: licence.id,
        applicationNo,
        ip,
        at: t,
      });
      return { id: reg.id, applicationNo, status: 'pending' as const };
    });
  } catch (e) {
    throw uniqueConflict(e) ?? e;
  }
}

export interface Application {
  name: string;
  creditCode: string;
  enterpriseType: string;
  region: string;
  address: string;
  legalPerson: string;
  legalPhone: string;
  contactName: string;
  contactPhone: string;
  account: string;
  passwordHash: string;
  licenceFileId: string;
  applicationNo: string;
  ip: string;
  at: Date;
}

type EngineNode = Awaited<ReturnType<typeof nodeForEngine>>;

/**
 * The application's row, its engine record (same id) and its submission for review, with the licence bound to it,
 * in the caller's transaction (the submission above; the demo seed).
 */
export async function createApplication(
  tx: Tx,
  caller: EngineCaller,
  node: EngineNode,
  ctx: Awaited<ReturnType<typeof policyContext>>,
  a: Application,
) {
  const reg = await repo.insertRegistration(tx, {
    applicationNo: a.applicationNo,
    name: a.name,
    creditCode: a.creditCode,
    enterpriseType: a.enterpriseType,
    region: a.region,
    address: a.address,
    legalPerson: a.legalPerson,
    legalPhone: a.legalPhone,
    contactName: a.contactName,
    contactPhone: a.contactPhone,
    account: a.account,
    passwordHash: a.passwordHash,
    licenceFileId: a.licenceFileId,
    status: 'pending',
    ip: a.ip.slice(0, 64),
    createdAt: a.at,
    updatedAt: a.at,
  });
  const rec = await qyzc.create(
    tx,
    {
      sqbh: a.applicationNo,
      qymc: a.name,
      tyshxydm: a.creditCode,
      qylx: a.enterpriseType,
      szdq: a.region,
      xxdz: a.address,
      fddbr: a.legalPerson,
      fddbrsj: a.legalPhone,
      lxr: a.contactName,
      lxdh: a.contactPhone,
      glyzh: a.account,
      sqzt: REGISTRATION_STATUS_LABELS.pending,
    },
    {
      owner: { ownerId: caller.id, enterpriseId: null },
      id: reg.id,
      actor: caller.actor,
      logbook: `企业注册申请：${a.name}（${a.creditCode}），申请编号 ${a.applicationNo}`,
    },
  );
  await repo.bindFile(tx, a.licenceFileId, reg.id);
  await submitInTx(tx, caller, node, ctx, { id: reg.id, version: rec.version });
  await writeOpLog(tx, caller.actor, {
    glName: GL,
    gnCoding: REGISTRATION_NODE,
    recordId: reg.id,
    logbook: `提交企业注册申请：${a.name}（${a.creditCode}），申请编号 ${a.applicationNo}，法定代表人手机已短信验证`,
  });
  return reg;
}

/** The applicant (the account that owns anonymous applications) as the engine's caller, acting as `name`. */
export async function applicantCaller(db: Db | Tx, name: string, ip: string | null): Promise<EngineCaller> {
  const applicant = await applicantUser(db);
  return {
    id: applicant.id,
    loginRoleType: 'U',
    enterpriseId: null,
    actor: { userId: applicant.id, userName: name.slice(0, 64), loginRoleType: 'U', ip },
    memo: requestMemo({}),
  };
}

/** The progress of one application: both its credit code and its number must match (else 404, nothing said). */
export async function progress(db: Db, creditCode: string, applicationNo: string): Promise<RegistrationProgress> {
  const r = await repo.registrationByNo(db, creditCode, applicationNo);
  if (!r) throw notFound(M.applicationNotFound);
  return {
    applicationNo: r.applicationNo,
    enterpriseName: r.name,
    status: r.status as RegistrationStatus,
    submittedAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt ? r.decidedAt.toISOString() : null,
    reason: r.status === 'rejected' ? r.reason : null,
    activated: !!r.activatedAt,
  };
}

// ── the review's decision hooks ────────────────────────────────────────────

let clock: () => Date = () => new Date();
let registered = false;

/** Registers the decision hooks once per process (apps built in tests share them; the latest app's clock is used). */
export function registerRegistrationHooks(now?: () => Date) {
  if (now) clock = now;
  if (registered) return;
  registered = true;
  onDecision(REGISTRATION_NODE, {
    name: 'enterprise-registration',
    async passed(e) {
      if (!e.final) return;
      await approve(e.tx, e.record.id, e.decider, e.opinion, clock());
    },
    async rejected(e) {
      await reject(e.tx, e.record.id, e.decider, e.opinion, clock());
    },
  });
}

type Decider = { id: string; userName: string; loginRoleType: string };
const actorOf = (d: Decider): Actor => ({
  userId: d.id,
  userName: d.userName,
  loginRoleType: d.loginRoleType as Actor['loginRoleType'],
});

/** The final pass: the enterprise and its administrator account (inactive), in the decision's transaction. */
async function approve(tx: Tx, id: string, decider: Decider, opinion: string | null, at: Date) {
  const r = await repo.registrationById(tx, id, true);
  // a record of the node added some other way has nothing to settle
  if (!r) return;
  if (r.status !== 'pending') throw conflict('该注册申请已处理');
  const actor = actorOf(decider);
  // an administrator may have registered the enterprise by hand, or the account been taken, meanwhile
  if (await repo.enterpriseWithCode(tx, r.creditCode))
    throw conflict('该统一社会信用代码已登记为企业，不能再通过本申请；请驳回并说明原因');
  if (await repo.userAccountExists(tx, r.account)) {
    throw conflict(`申请的管理员账号「${r.account}」已被其他用户使用，不能通过本申请；请驳回并说明原因`);
  }
  const ent = await repo.insertEnterprise(tx, {
    name: r.name,
    creditCode: r.creditCode,
    enterpriseType: r.enterpriseType,
    legalPerson: r.legalPerson,
    region: r.region,
    address: r.address,
    contactName: r.contactName,
    contactPhone: r.contactPhone,
    createdAt: at,
    updatedAt: at,
  });
  const user = await repo.insertUser(tx, {
    account: r.account,
    userName: r.contactName,
    loginRoleType: 'U',
    passwordHash: r.passwordHash,
    enterpriseId: ent.id,
    phone: r.contactPhone,
    status: 'inactive',
    createdAt: at,
    updatedAt: at,
  });
  await repo.insertEnterpriseAdmin(tx, ent.id, user.id);
  await repo.updateRegistration(tx, r.id, {
    status: 'approved',
    decidedAt: at,
    decidedBy: decider.userName.slice(0, 64),
    enterpriseId: ent.id,
    userId: user.id,
    passwordHash: '',
    reason: null,
  });
  await qyzc.update(tx, r.id, { sqzt: REGISTRATION_STATUS_LABELS.approved }, { actor, logbook: '注册审核通过' });
  await writeOpLog(tx, actor, {
    glName: GL,
    gnCoding: REGISTRATION_NODE,
    recordId: r.id,
    logbook: `企业注册审核通过：${r.name}（${r.creditCode}），已创建企业与管理员账号 ${r.account}（待激活）${opinion ? `；审核意见：${opinion}` : ''}`,
  });
  // the activation notice: in the account's message centre (read once it is active) — the legal representative
  // activates through 企业激活 with an SMS code to the legal phone
  await sendUserMessages(tx, [
    {
      userId: user.id,
      kind: 'result',
      title: '企业注册申请已审核通过',
      body: `您的企业注册申请（申请编号 ${r.applicationNo}）已于 ${formatIn(at, 'YYYY-MM-DD HH:mm')} 审核通过，企业账号已激活可用。`,
      gnCoding: REGISTRATION_NODE,
      recordId: r.id,
      createdAt: at,
    },
  ]);
}

async function reject(tx: Tx, id: string, decider: Decider, opinion: string | null, at: Date) {
  const r = await repo.registrationById(tx, id, true);
  if (!r) return;
  if (r.status !== 'pending') throw conflict('该注册申请已处理');
  const reason = opinion?.trim();
  if (!reason) throw badRequest('驳回注册申请须填写审核意见（申请人查询进度时可见）');
  const actor = actorOf(decider);
  await repo.updateRegistration(tx, r.id, {
    status: 'rejected',
    reason: reason.slice(0, 500),
    decidedAt: at,
    decidedBy: decider.userName.slice(0, 64),
    passwordHash: '',
  });
  await qyzc.update(tx, r.id, { sqzt: REGISTRATION_STATUS_LABELS.rejected }, { actor, logbook: '注册审核驳回' });
  await writeOpLog(tx, actor, {
    glName: GL,
    gnCoding: REGISTRATION_NODE,
    recordId: r.id,
    logbook: `企业注册申请驳回：${r.name}（${r.creditCode}），原因：${reason}`,
  });
}
