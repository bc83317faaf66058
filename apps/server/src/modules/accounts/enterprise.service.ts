import {
  ENTERPRISE_MESSAGES as E,
  ENTERPRISE_FIELD_LABELS,
  ENTERPRISE_REQUIRED_FIELDS,
  type EnterpriseChange,
  type EnterpriseChangeItem,
  type EnterpriseInfo,
  type EnterpriseListItem,
  missingEnterpriseFields,
  RFC_MESSAGES,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import type { AuthContext } from '../auth/auth.service';
import { callerOf as creditCallerOf } from '../credit/access';
import { auditChange } from '../credit/changes/changes.service';
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

function _valuesOf(e: repo.EnterpriseRow): Values {
  return Object.fromEntries(ENTERPRISE_REQUIRED_FIELDS.map((f) => [f, canonical(f, e[f])])) as Values;
}

function _diff(before: Values, after: Values): EnterpriseChangeItem[] {
  return ENTERPRISE_REQUIRED_FIELDS.filter((f) => before[f] !== after[f]).map((f) => ({
    field: f,
    label: ENTERPRISE_FIELD_LABELS[f],
    oldValue: before[f],
    newValue: after[f],
  }));
}

const _itemsText = (items: EnterpriseChangeItem[]) =>
  items.map((i) => `${i.label}：${i.oldValue ?? '（空）'} → ${i.newValue ?? '（空）'}`).join('；');

function changeView(r: changes.ChangeView): EnterpriseChange {
  const c = r.change;
  return {
    id: c.id,
    enterpriseId: c.enterpriseId,
    enterpriseName: r.enterpriseName,
    creditCode: r.creditCode,
    status: changes.STATUS_OF[c.status] ?? 'pending',
    items: c.dataList.map((d) => ({
      field: changes.fieldOf(d.changeField),
      label: d.fieldName,
      oldValue: d.oldText ?? d.oldValue,
      newValue: d.newText ?? d.newValue,
    })),
    submittedBy: c.createdByName ?? '',
    submittedAt: (c.sbTime ?? c.createdAt).toISOString(),
    decidedBy: c.auditorName ?? null,
    decidedAt: c.czTime ? c.czTime.toISOString() : null,
    reason: c.auditRecord,
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
  // an enterprise changes its information through a change round (信息变更, /ks/rfc/*), reviewed before it is public
  throw forbidden(RFC_MESSAGES.directEditRefused);
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

/**
 * 通过 / 驳回 of an enterprise's information round: the change round's review (modules/credit/changes) — the engine's
 * levels and to-dos on 信用变更申请, the values written in the decision's transaction, 409 when decided meanwhile.
 */
export async function audit(
  db: Db,
  auth: AuthContext,
  input: { id: string; version: number; pass: boolean; reason: string | null },
): Promise<EnterpriseChange> {
  const before = await changes.viewOf(db, input.id);
  if (!before) throw notFound(E.changeNotFound);
  await auditChange(db, creditCallerOf(auth), {
    id: input.id,
    version: input.version,
    pass: input.pass,
    auditRecord: input.reason,
  });
  const after = await changes.viewOf(db, input.id);
  return changeView(after!);
}
