import { api, type FieldDef, localToday } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { requireNode } from '../../platform/permissions';
import { route } from '../../platform/route';
import type { AuthContext } from '../auth/auth.service';
import { systemsFor } from '../shell/structure.service';
import { deleteRecord, type EngineCaller, listRecords, recordDetail, recordLogs, saveRecord } from './records.service';
import { auditRecord, revokeRecord, submitRecord } from './review.service';
import { fieldsOf, nodeForEngine, saveFields } from './schema.service';
import { todoCounts, todoList } from './todos.service';

/** The schema engine: a node's fields (developers edit them) and the records of its own table. */
export function engineRoutes(app: FastifyInstance, db: Db, now: () => Date) {
  const caller = (auth: AuthContext): EngineCaller => ({
    id: auth.user.id,
    loginRoleType: auth.user.loginRoleType,
    enterpriseId: auth.user.enterpriseId ?? null,
    actor: auth.actor,
  });

  route(app, api.todoSystems, async ({ auth }) => {
    const c = caller(auth);
    const { bySystem } = await todoCounts(db, c);
    return (await systemsFor(db, c))
      .map((s) => ({ systemCoding: s.gnCoding, systemName: s.systemName, todoCount: bySystem.get(s.id) ?? 0 }))
      .filter((s) => s.todoCount > 0);
  });
  route(app, api.todoList, async ({ auth, body }) => todoList(db, caller(auth), body));
  route(app, api.recordLogs, async ({ auth, body }) => recordLogs(db, caller(auth), body.gnCoding, body.id));
  route(app, api.arrayFields, async ({ auth, body }) => {
    await requireNode(db, caller(auth), body.gnCoding);
    const n = await nodeForEngine(db, body.gnCoding);
    return { fields: fieldsOf(n), version: n.fieldsVersion };
  });
  route(
    app,
    api.saveFields,
    async ({ auth, body }) => saveFields(db, auth.actor, body.gnCoding, body.fields as FieldDef[], body.version),
    { roles: ['D'], message: '保存成功' },
  );
  route(app, api.recordList, async ({ auth, body }) => listRecords(db, caller(auth), body));
  route(app, api.recordDetail, async ({ auth, body }) => recordDetail(db, caller(auth), body.gnCoding, body.id));
  route(app, api.recordSave, async ({ auth, body }) => saveRecord(db, caller(auth), body, localToday(now())), {
    message: '保存成功',
  });
  route(
    app,
    api.recordSubmit,
    async ({ auth, body }) => {
      await submitRecord(db, caller(auth), body);
      return recordDetail(db, caller(auth), body.gnCoding, body.id);
    },
    { message: '提交成功' },
  );
  route(
    app,
    api.recordAudit,
    async ({ auth, body }) => {
      await auditRecord(db, caller(auth), body);
      return recordDetail(db, caller(auth), body.gnCoding, body.id);
    },
    { message: '操作成功' },
  );
  route(
    app,
    api.recordRevoke,
    async ({ auth, body }) => {
      await revokeRecord(db, caller(auth), body);
      return recordDetail(db, caller(auth), body.gnCoding, body.id);
    },
    { message: '操作成功' },
  );
  route(
    app,
    api.recordDelete,
    async ({ auth, body }) => {
      await deleteRecord(db, caller(auth), body.gnCoding, body.id);
      return null;
    },
    { message: '删除成功' },
  );
}
