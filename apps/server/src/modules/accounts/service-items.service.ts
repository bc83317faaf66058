import { SERVICE_ITEM_MESSAGES as S, type ServiceItem, serviceItemLink } from '@ks/contracts';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/sql';
import { conflict, notFound, validationFailed } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import type { AuthContext } from '../auth/auth.service';
import * as repo from './accounts.repo';

/**
 * 办理事项 (/system/transact): administrators publish what enterprises can handle and where; everyone signed in reads
 * the enabled items of enabled systems, each linking to the system choice (/judge).
 */

const GL = '办理事项';

export interface ServiceItemValues {
  name: string;
  systemCoding: string;
  gnCoding: string | null;
  description: string;
  materials: string[];
  timeLimitDays: number;
  enabled: boolean;
  sort: number;
}

type ItemRow = NonNullable<Awaited<ReturnType<typeof repo.findServiceItem>>>;

/** An item as the caller sees it: 「去办理」 leads to its node's page as the caller's sidebar would open it. */
function view(row: ItemRow, isAdmin = false): ServiceItem {
  const i = row.item;
  // a node that no longer exists (or left the system) leaves the item with its system only
  const node = i.gnCoding && row.nodeProperties ? { gnCoding: i.gnCoding, nodeProperties: row.nodeProperties } : null;
  return {
    id: i.id,
    name: i.name,
    systemCoding: i.systemCoding,
    systemName: row.systemName,
    gnCoding: node ? i.gnCoding : null,
    nodeTitle: node ? row.nodeTitle : null,
    description: i.description,
    materials: i.materials,
    timeLimitDays: i.timeLimitDays,
    enabled: i.enabled,
    sort: i.sort,
    version: i.version,
    updatedAt: i.updatedAt.toISOString(),
    link: serviceItemLink(i.systemCoding, node, isAdmin),
  };
}

export async function list(
  db: Db,
  auth: AuthContext,
  q: Omit<repo.ServiceItemFilter, 'liveSystemsOnly'>,
): Promise<{ records: ServiceItem[]; total: number }> {
  const admin = auth.user.loginRoleType === 'M';
  const { records, total } = await repo.listServiceItems(db, {
    ...q,
    // everyone but administrators sees only what is published
    enabled: admin ? q.enabled : true,
    liveSystemsOnly: !admin,
  });
  return { records: records.map((r) => view(r, admin)), total };
}

const duplicate = () => Object.assign(conflict(S.duplicate), { data: { fieldErrors: { name: [S.duplicate] } } });

async function check(db: Db, v: ServiceItemValues, exceptId?: string) {
  if ((await repo.systemNameOf(db, v.systemCoding)) === null) {
    throw validationFailed({ systemCoding: [S.systemNotFound] });
  }
  if (v.gnCoding && (await repo.systemOfNode(db, v.gnCoding)) !== v.systemCoding) {
    throw validationFailed({ gnCoding: [S.nodeNotInSystem] });
  }
  if (await repo.serviceItemNameTaken(db, v.name, exceptId)) throw duplicate();
}

function uniqueOr409(e: unknown): never {
  if (isUniqueViolation(e)) throw duplicate();
  throw e;
}

async function itemView(db: Db, id: string): Promise<ServiceItem> {
  const row = await repo.findServiceItem(db, id);
  if (!row) throw notFound(S.notFound);
  // written by administrators only
  return view(row, true);
}

export async function create(db: Db, actor: Actor, v: ServiceItemValues): Promise<ServiceItem> {
  await check(db, v);
  const id = await db
    .transaction(async (tx) => {
      const row = await repo.insertServiceItem(tx, v);
      await writeOpLog(tx, actor, { glName: GL, recordId: row.id, logbook: `新增办理事项：${row.name}` });
      return row.id;
    })
    .catch(uniqueOr409);
  return itemView(db, id);
}

export async function update(
  db: Db,
  actor: Actor,
  input: ServiceItemValues & { id: string; version: number },
): Promise<ServiceItem> {
  const { id, version, ...values } = input;
  if (!(await repo.findServiceItem(db, id))) throw notFound(S.notFound);
  await check(db, values, id);
  await db
    .transaction(async (tx) => {
      const row = await repo.updateServiceItem(tx, id, version, values);
      if (!row) {
        if (!(await repo.findServiceItem(tx, id))) throw notFound(S.notFound);
        throw conflict(S.stale);
      }
      await writeOpLog(tx, actor, {
        glName: GL,
        recordId: id,
        logbook: `修改办理事项：${row.name}${row.enabled ? '' : '（停用）'}`,
      });
    })
    .catch(uniqueOr409);
  return itemView(db, id);
}

export async function remove(db: Db, actor: Actor, id: string): Promise<null> {
  return db.transaction(async (tx) => {
    const row = await repo.deleteServiceItem(tx, id);
    if (!row) throw notFound(S.notFound);
    await writeOpLog(tx, actor, { glName: GL, recordId: id, logbook: `删除办理事项：${row.name}` });
    return null;
  });
}
