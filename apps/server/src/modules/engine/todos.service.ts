import type { Db } from '../../db/client';
import { type Caller, roleCodesOf } from '../../platform/permissions';
import { jumpResolver } from '../messages/jumps';
import { openTodoCounts, openTodoPage } from './todos.repo';

/** The caller's open to-dos (assigned to them, or to one of their roles): counts per system and node, and the list. */

export async function todoCounts(db: Db, c: Caller) {
  const rows = await openTodoCounts(db, c.id, await roleCodesOf(db, c));
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
