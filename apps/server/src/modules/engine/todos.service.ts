import type { Db } from '../../db/client';
import { createCache } from '../../platform/cache';
import { type Caller, roleCodesOf } from '../../platform/permissions';
import { jumpResolver } from '../messages/jumps';
import { openTodoCounts, openTodoPage, todosVersion } from './todos.repo';

type CountRows = Awaited<ReturnType<typeof openTodoCounts>>;
/**
 * A caller's to-do counts (per user and role set) with the data version they were read at: reused only while the
 * version read again is the same (any to-do written anywhere moves it), so every process answers what the database
 * holds. The bell, the system selector and the sidebar ask for them on every page.
 */
const kept = createCache<string, { version: string; rows: CountRows }>('engine.todoCounts', {
  max: 5000,
  ttlMs: 10 * 60_000,
});

/** The caller's open to-dos (assigned to them, or to one of their roles): counts per system and node, and the list. */

export async function todoCounts(db: Db, c: Caller) {
  const roleCodes = await roleCodesOf(db, c);
  const key = `${c.id}|${roleCodes.join(',')}`;
  // the version first: counts that a change overtakes are kept under the older version, never reused after it
  const version = await todosVersion(db);
  const hit = kept.get(key);
  let rows: CountRows;
  if (hit && hit.version === version) rows = hit.rows;
  else {
    rows = await openTodoCounts(db, c.id, roleCodes);
    kept.set(key, { version, rows });
  }
  const bySystem = new Map<string, number>();
  const byNode = new Map<string, number>();
  for (const r of rows) {
    bySystem.set(r.systemId, (bySystem.get(r.systemId) ?? 0) + Number(r.n));
    byNode.set(r.nodeId, Number(r.n));
  }
  return { bySystem, byNode };
}

/** §3 to-do record: id, gnName, sbTime, businessName, userName (plus where it leads). One row per record. */
export async function todoList(db: Db, c: Caller, q: { systemCoding?: string; curPage: number; pageSize: number }) {
  const { records, total } = await openTodoPage(db, c.id, await roleCodesOf(db, c), {
    systemCoding: q.systemCoding,
    offset: (q.curPage - 1) * q.pageSize,
    limit: q.pageSize,
  });
  const resolve = await jumpResolver(db, c.loginRoleType === 'M');
  return {
    records: records.map(({ nodeProperties, ...r }) => ({
      ...r,
      level: Number(r.level),
      sbTime: new Date(r.sbTime).toISOString(),
      path: resolve('todo', { gnCoding: r.gnCoding, nodeProperties, systemCoding: r.systemCoding }, r.recordId) ?? '',
    })),
    total,
  };
}
