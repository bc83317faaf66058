import {
  ENTERPRISE_MESSAGES as E,
  ENTERPRISE_FIELD_LABELS,
  ENTERPRISE_REQUIRED_FIELDS,
  type EnterpriseChange,
  type EnterpriseChangeItem,
  type EnterpriseChangeStatus,
  type EnterpriseInfo,
  type EnterpriseListItem,
  missingEnterpriseFields,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import type { AuthContext } from '../auth/auth.service';
import * as repo from './accounts.repo';
import * as changes from './enterprise-changes.repo';

/**
 * 企业信息 (/system/companyInfo): a U user views their own enterprise and proposes changes to it; administrators see
 * every enterprise, edit it directly and decide the proposals. An enterprise's edit never reaches the public record
 * (the portal's market pages read the enterprise row) by itself: it is stored as a pending change (what changed,
 * old → new) until an administrator passes it — then the values are written — or rejects it with a reason, which the
 * enterprise sees. Name and credit code are never changed here. Edits name the `updatedAt` they were based on (409
 * when stale); decisions name the change's version (409 when the enterprise revised it meanwhile).
 */

const GL = '企业信息';

type Values = Record<(typeof ENTERPRISE_REQUIRED_FIELDS)[number], string | null>;

const missingOf = (e: repo.EnterpriseRow): string[] => missingEnterpriseFields(e);

/** Registered capital as the database keeps it (numeric(16,2)): digits without leading zeros, two decimals. */
function canonicalCapital(v: string): string {
  const [int = '0', frac = ''] = v.trim().split('.');
  return `${int.replace(/^0+(?=\d)/, '')}.${(`${frac}00`).slice(0, 2)}`;
}

/** A field's value in the one text form both the enterprise row and a proposal are compared and shown in. */
function canonical(field: keyof Values, v: string | null | undefined): string | null {
  if (v === null || v === undefined || String(v).trim() === '') return null;
  return field === 'registeredCapital' ? canonicalCapital(String(v)) : String(v).trim();
}

function valuesOf(e: repo.EnterpriseRow): Values {
  return Object.fromEntries(ENTERPRISE_REQUIRED_FIELDS.map((f) => [f, canonical(f, e[f])])) as Values;
}

function diff(before: Values, after: Values): EnterpriseChangeItem[] {
  return ENTERPRISE_REQUIRED_FIELDS.filter((f) => before[f] !== after[f]).map((f) => ({
    field: f,
    label: ENTERPRISE_FIELD_LABELS[f],
    oldValue: before[f],
    newValue: after[f],
  }));
}

const itemsText = (items: EnterpriseChangeItem[]) =>
  items.map((i) => `${i.label}：${i.oldValue ?? '（空）'} → ${i.newValue ?? '（空）'}`).join('；');

function changeView(r: changes.ChangeView): EnterpriseChange {
  const c = r.change;
  return {
    id: c.id,
    enterpriseId: c.enterpriseId,
    enterpriseName: r.enterpriseName,
    creditCode: r.creditCode,
    status: c.status as EnterpriseChangeStatus,
    items: c.items,
    submittedBy: r.submittedByName,
    submittedAt: c.submittedAt.toISOString(),
    decidedBy: r.decidedByName ?? null,
    decidedAt: c.decidedAt ? c.decidedAt.toISOString() : null,
    reason: c.reason,
    version: c.version,
  };
}

function view(
  row: { enterprise: repo.EnterpriseRow; staffCount: number },
  change: EnterpriseChange | null,
): EnterpriseInfo {
  const e = row.enterprise;
  return {
    id: e.id,
    name: e.name,
    creditCode: e.creditCode,
    enterpriseType: e.enterpriseType,
    legalPerson: e.legalPerson,
    region: e.region,
    address: e.address,
    registeredCapital: e.registeredCapital,
    establishedAt: e.establishedAt,
    creditGrade: e.creditGrade,
    staffCount: Number(row.staffCount ?? 0),
    updatedAt: e.updatedAt.toISOString(),
    missing: missingOf(e),
    change,
  };
}

/** The enterprise the caller may see: a U user's own (any other id is refused), any one for an administrator. */
function targetOf(auth: AuthContext, id: string | undefined): string {
  if (auth.user.loginRoleType === 'M') {
    if (!id) throw badRequest('请指定企业', { fieldErrors: { id: ['请指定企业'] } });
    return id;
  }
  const own = auth.user.enterpriseId;
  if (!own) throw notFound(E.notLinked);
  if (id && id !== own) throw forbidden(E.otherEnterprise);
  return own;
}

/** The approved (public) values, and the enterprise's latest change: pending, or the last decision with its reason. */
export async function info(db: Db, auth: AuthContext, id?: string): Promise<EnterpriseInfo> {
  const target = targetOf(auth, id);
  const row = await repo.findEnterprise(db, target);
  if (!row) throw notFound(E.notFound);
  const latest = await changes.latestOf(db, target);
  return view(row, latest ? changeView(latest) : null);
}

export interface EnterpriseEdit {
  id: string;
  updatedAt: string;
  legalPerson: string;
  region: string;
  address: string;
  registeredCapital: string;
  establishedAt: string;
}

/**
 * An edit: by an administrator, written at once; by the enterprise, stored as its pending change (a second edit
 * while one waits revises it). Either way only from the version of the enterprise the editor saw.
 */
export async function update(db: Db, auth: AuthContext, input: EnterpriseEdit): Promise<EnterpriseInfo> {
  const id = targetOf(auth, input.id);
  if (auth.user.loginRoleType === 'M') {
    await db.transaction(async (tx) => {
      const row = await repo.updateEnterprise(tx, id, input.updatedAt, {
        legalPerson: input.legalPerson,
        region: input.region,
        address: input.address,
        registeredCapital: input.registeredCapital,
        establishedAt: input.establishedAt,
      });
      if (!row) {
        if (!(await repo.findEnterprise(tx, id))) throw notFound(E.notFound);
        throw conflict(E.stale);
      }
      await writeOpLog(tx, auth.actor, { glName: GL, recordId: id, logbook: `修改企业信息：${row.name}` });
    });
    return info(db, auth, id);
  }
  await propose(db, auth, id, input);
  return info(db, auth, id);
}

async function propose(db: Db, auth: AuthContext, id: string, input: EnterpriseEdit) {
  const now = new Date();
  await db.transaction(async (tx) => {
    const ent = await changes.lockEnterprise(tx, id);
    if (!ent) throw notFound(E.notFound);
    if (ent.updatedAt.getTime() !== new Date(input.updatedAt).getTime()) throw conflict(E.stale);
    const proposed = Object.fromEntries(ENTERPRISE_REQUIRED_FIELDS.map((f) => [f, canonical(f, input[f])])) as Values;
    const items = diff(valuesOf(ent), proposed);
    if (!items.length) throw badRequest(E.unchanged);
    const pending = await changes.pendingOf(tx, id);
    const v = { values: proposed, items, submittedBy: auth.user.id, at: now };
    if (pending) {
      const revised = await changes.reviseChange(tx, pending.id, v);
      if (!revised) throw conflict(E.changeDecided);
      await writeOpLog(tx, auth.actor, {
        glName: GL,
        recordId: id,
        logbook: `修改待审核的企业信息变更申请：${itemsText(items)}`,
      });
    } else {
      await changes.insertChange(tx, { enterpriseId: id, ...v });
      await writeOpLog(tx, auth.actor, {
        glName: GL,
        recordId: id,
        logbook: `提交企业信息变更申请：${itemsText(items)}`,
      });
    }
  });
}

/** The message of an edit's answer: enterprises are told their change waits for review. */
export const updateMessage = (auth: AuthContext) => (auth.user.loginRoleType === 'M' ? '保存成功' : E.submitted);

export async function list(
  db: Db,
  q: repo.EnterpriseFilter,
): Promise<{ records: EnterpriseListItem[]; total: number }> {
  const { records, total } = await repo.listEnterprises(db, q);
  const pending = await changes.pendingAmong(
    db,
    records.map((r) => r.enterprise.id),
  );
  return {
    records: records.map((r) => {
      const { address: _a, registeredCapital: _c, change: _ch, ...item } = view(r, null);
      return { ...item, pendingChange: pending.has(r.enterprise.id) };
    }),
    total,
  };
}

export async function listChanges(db: Db, q: changes.ChangeFilter) {
  const { records, total } = await changes.listChanges(db, q);
  return { records: records.map(changeView), total };
}

/** 通过: the values are written and become public; 驳回: the reason is kept for the enterprise. One op-log row each. */
export async function audit(
  db: Db,
  auth: AuthContext,
  input: { id: string; version: number; pass: boolean; reason: string | null },
): Promise<EnterpriseChange> {
  const now = new Date();
  await db.transaction(async (tx) => {
    const found = await changes.findChange(tx, input.id);
    if (!found) throw notFound(E.changeNotFound);
    await changes.lockEnterprise(tx, found.enterpriseId);
    const current = await changes.findChange(tx, input.id);
    if (current?.status !== 'pending') throw conflict(E.changeDecided);
    if (current.version !== input.version) throw conflict(E.changeStale);
    if (input.pass && !(await changes.applyChange(tx, current.enterpriseId, current.items, now))) {
      throw conflict(E.changeOutdated);
    }
    const decided = await changes.decideChange(tx, current.id, current.version, {
      status: input.pass ? 'approved' : 'rejected',
      decidedBy: auth.user.id,
      reason: input.reason,
      at: now,
    });
    if (!decided) throw conflict(E.changeDecided);
    await writeOpLog(tx, auth.actor, {
      glName: GL,
      recordId: current.enterpriseId,
      logbook: input.pass
        ? `通过企业信息变更申请：${itemsText(current.items)}${input.reason ? `；审核建议：${input.reason}` : ''}`
        : `驳回企业信息变更申请：${itemsText(current.items)}；审核建议：${input.reason}`,
    });
  });
  const after = await changes.viewOf(db, input.id);
  return changeView(after!);
}
