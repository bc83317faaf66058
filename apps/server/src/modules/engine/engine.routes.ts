import { api, type FieldDef, validationClock } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { contentDisposition } from '../../platform/content-disposition';
import { parse, unauthorized } from '../../platform/errors';
import { requestMemo, requireNode } from '../../platform/permissions';
import { route } from '../../platform/route';
import type { AuthContext } from '../auth/auth.service';
import { systemsFor } from '../shell/structure.service';
import { assignableList, assignRecord } from './assign.service';
import { chartData } from './charts.service';
import { exportRecords, XLSX_TYPE } from './export.service';
import { formDetails } from './form.service';
import { listRecords } from './list.service';
import { fieldsOf } from './node-fields';
import { certCascade, dicPullDown, dictionaryCodes, filterFields, pullDown } from './options.service';
import type { EngineCaller } from './record-access';
import { deleteRecord, recordDetail, recordLogs, saveRecord } from './records.service';
import { auditRecord, revokeRecord, submitRecord } from './review.service';
import { nodeForEngine, saveFields, saveValueRange } from './schema.service';
import { todoCounts, todoList } from './todos.service';
import { uniqueKeysOf } from './unique';

/**
 * The schema engine: a node's fields (developers edit them) and the records of its own table. `now` is the service
 * clock; `timeZone` (APP_TZ) decides which day and minute it is for the date rules.
 */
export function engineRoutes(app: FastifyInstance, db: Db, now: () => Date, timeZone: string) {
  const caller = (auth: AuthContext): EngineCaller => ({
    id: auth.user.id,
    loginRoleType: auth.user.loginRoleType,
    enterpriseId: auth.user.enterpriseId ?? null,
    actor: auth.actor,
    // permission reads once per request: the AuthContext is made fresh by every request's authentication
    memo: requestMemo(auth),
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
    return { fields: fieldsOf(n), version: n.fieldsVersion, uniqueKeys: uniqueKeysOf(n) };
  });
  route(
    app,
    api.saveFields,
    async ({ auth, body }) =>
      saveFields(db, auth.actor, body.gnCoding, body.fields as FieldDef[], body.version, body.uniqueKeys),
    { roles: ['D'], message: '保存成功' },
  );
  route(app, api.recordList, async ({ auth, body }) => listRecords(db, caller(auth), body));
  route(app, api.nodeChartData, async ({ auth, body }) => chartData(db, caller(auth), body.gnCoding, body.charts));
  route(app, api.recordDetail, async ({ auth, body }) => recordDetail(db, caller(auth), body.gnCoding, body.id));
  route(
    app,
    api.recordSave,
    async ({ auth, body }) => saveRecord(db, caller(auth), body, validationClock(now(), timeZone)),
    {
      message: '保存成功',
    },
  );
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
  // option sources, filter definitions, forms
  route(app, api.pullDown, async ({ auth, body }) => pullDown(db, caller(auth), body));
  route(app, api.dicPullDown, async ({ auth, body }) => dicPullDown(db, caller(auth), body));
  route(app, api.certCascade, async ({ auth, body }) => certCascade(db, caller(auth), body));
  route(app, api.dicCodes, async () => dictionaryCodes(db), { roles: ['D'] });
  route(app, api.filterFields, async ({ auth, body }) => filterFields(db, caller(auth), body));
  route(app, api.formDetails, async ({ auth, body }) => formDetails(db, caller(auth), body));
  route(
    app,
    api.valueRange,
    async ({ auth, body }) => saveValueRange(db, auth.actor, body.gnCoding, body.code, body.list),
    { roles: ['D'], message: '保存成功' },
  );
  // 任务指派
  route(app, api.assignableList, async ({ auth, body }) => assignableList(db, caller(auth), body.gnCoding, body.id));
  route(
    app,
    api.recordAssign,
    async ({ auth, body }) => {
      await assignRecord(db, caller(auth), body);
      return recordDetail(db, caller(auth), body.gnCoding, body.id);
    },
    { message: '指派成功' },
  );
  // export answers a file, not the envelope (errors before the first byte still do)
  app.route({
    method: api.recordExport.method,
    url: api.recordExport.path,
    config: { public: false },
    handler: async (req, reply) => {
      if (!req.auth) throw unauthorized();
      const body = parse(api.recordExport.body, req.body);
      const file = await exportRecords(db, caller(req.auth), body, now());
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', contentDisposition(file.name))
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
  });
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
