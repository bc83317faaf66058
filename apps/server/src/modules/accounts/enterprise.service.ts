import {
  ENTERPRISE_MESSAGES as E,
  type EnterpriseInfo,
  type EnterpriseListItem,
  missingEnterpriseFields,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import type { AuthContext } from '../auth/auth.service';
import * as repo from './accounts.repo';

/**
 * 企业信息 (/system/companyInfo): a U user views and completes their own enterprise; administrators see and edit any.
 * Name and credit code are never changed here. Edits name the `updatedAt` they were based on (409 when stale).
 */

const GL = '企业信息';

const missingOf = (e: repo.EnterpriseRow): string[] => missingEnterpriseFields(e);

function view(row: { enterprise: repo.EnterpriseRow; staffCount: number }): EnterpriseInfo {
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

export async function info(db: Db, auth: AuthContext, id?: string): Promise<EnterpriseInfo> {
  const row = await repo.findEnterprise(db, targetOf(auth, id));
  if (!row) throw notFound(E.notFound);
  return view(row);
}

export async function update(
  db: Db,
  auth: AuthContext,
  input: {
    id: string;
    updatedAt: string;
    legalPerson: string;
    region: string;
    address: string;
    registeredCapital: string;
    establishedAt: string;
  },
): Promise<EnterpriseInfo> {
  const id = targetOf(auth, input.id);
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
    await writeOpLog(tx, auth.actor, { glName: GL, recordId: id, logbook: `完善企业信息：${row.name}` });
  });
  return info(db, auth, id);
}

export async function list(
  db: Db,
  q: repo.EnterpriseFilter,
): Promise<{ records: EnterpriseListItem[]; total: number }> {
  const { records, total } = await repo.listEnterprises(db, q);
  return {
    records: records.map((r) => {
      const { address: _a, registeredCapital: _c, ...item } = view(r);
      return item;
    }),
    total,
  };
}
