import { ORG_MESSAGES as O, type Organization, type OrgType } from '@ks/contracts';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/sql';
import { conflict, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import * as repo from './accounts.repo';

/** 管理机构 (/system/managementInfo): administrators edit, administrators and developers read. */

const GL = '管理机构';

export interface OrganizationValues {
  name: string;
  orgType: OrgType;
  region: string;
  creditCode: string | null;
  contact: string | null;
  phone: string | null;
  address: string | null;
  enabled: boolean;
}

function view(r: repo.OrganizationRow): Organization {
  return {
    id: r.id,
    name: r.name,
    orgType: r.orgType as OrgType,
    region: r.region,
    creditCode: r.creditCode,
    contact: r.contact,
    phone: r.phone,
    address: r.address,
    enabled: r.enabled,
    version: r.version,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const clash = (field: 'name' | 'creditCode') => {
  const message = field === 'name' ? O.duplicate : O.duplicateCreditCode;
  return Object.assign(conflict(message), { data: { fieldErrors: { [field]: [message] } } });
};

async function assertFree(db: Db, v: OrganizationValues, exceptId?: string) {
  const taken = await repo.organizationClash(db, v.name, v.creditCode, exceptId);
  if (taken.name) throw clash('name');
  if (taken.creditCode) throw clash('creditCode');
}

/** A unique violation that slipped past the check (a concurrent write) is still a 409. */
function uniqueOr409(e: unknown): never {
  if (isUniqueViolation(e, 'organizations_credit_code_uq') && !isUniqueViolation(e, 'organizations_name_uq')) {
    throw clash('creditCode');
  }
  if (isUniqueViolation(e)) throw clash('name');
  throw e;
}

export async function list(db: Db, q: repo.OrganizationFilter) {
  const { records, total } = await repo.listOrganizations(db, q);
  return { records: records.map(view), total };
}

export async function create(db: Db, actor: Actor, v: OrganizationValues): Promise<Organization> {
  await assertFree(db, v);
  return db
    .transaction(async (tx) => {
      const row = await repo.insertOrganization(tx, v);
      await writeOpLog(tx, actor, {
        glName: GL,
        recordId: row.id,
        logbook: `新增管理机构：${row.name}（${row.orgType}）`,
      });
      return view(row);
    })
    .catch(uniqueOr409);
}

export async function update(
  db: Db,
  actor: Actor,
  input: OrganizationValues & { id: string; version: number },
): Promise<Organization> {
  const { id, version, ...values } = input;
  if (!(await repo.findOrganization(db, id))) throw notFound(O.notFound);
  await assertFree(db, values, id);
  return db
    .transaction(async (tx) => {
      const row = await repo.updateOrganization(tx, id, version, values);
      if (!row) {
        if (!(await repo.findOrganization(tx, id))) throw notFound(O.notFound);
        throw conflict(O.stale);
      }
      await writeOpLog(tx, actor, { glName: GL, recordId: id, logbook: `修改管理机构：${row.name}` });
      return view(row);
    })
    .catch(uniqueOr409);
}

export async function remove(db: Db, actor: Actor, id: string): Promise<null> {
  return db.transaction(async (tx) => {
    const row = await repo.deleteOrganization(tx, id);
    if (!row) throw notFound(O.notFound);
    await writeOpLog(tx, actor, { glName: GL, recordId: id, logbook: `删除管理机构：${row.name}` });
    return null;
  });
}
