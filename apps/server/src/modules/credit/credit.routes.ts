import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { contentDisposition } from '../../platform/content-disposition';
import { forbidden, parse, unauthorized } from '../../platform/errors';
import { route } from '../../platform/route';
import { XLSX_TYPE } from '../engine/export.service';
import { callerOf } from './access';
import './files';
import { exportCredit } from './export.service';
import { baseScoreOf, levelsOf, setLevels, sweepExpired } from './grade.service';
import * as letters from './letters.service';
import * as overview from './overview.service';
import { publicList } from './public.service';
import * as records from './records.service';

/**
 * Credit management (spec §7 Credit). Login role types are checked before the input is read; ownership and the
 * reviewer's role in the services (an enterprise user reaches only their own side: 404 otherwise). Registered in the
 * business scope (an enterprise with incomplete information gets 418); the public credit list is registered apart.
 */
const ANY = ['M', 'D', 'U'];
const ADMIN = ['M'];
const SIDE = ['U'];
const DECIDE = ['M', 'U'];

/** How often grades that ran out are regraded even if nobody reads them. */
const SWEEP_EVERY_MS = 10 * 60_000;

export function creditRoutes(app: FastifyInstance, db: Db, now: () => Date) {
  route(app, api.creditLeftTree, async ({ auth, body }) => overview.leftTree(db, callerOf(auth), body, now()), {
    roles: ANY,
  });
  route(app, api.creditTopTitles, async ({ auth }) => overview.topTitles(db, callerOf(auth), now()), { roles: ANY });
  route(
    app,
    api.creditGradeOverview,
    async ({ auth, body }) => overview.gradeOverview(db, callerOf(auth), body.subjectKind, now()),
    { roles: ANY },
  );
  route(app, api.creditCommonList, async ({ auth, body }) => overview.subjectList(db, callerOf(auth), body, now()), {
    roles: ANY,
  });
  route(
    app,
    api.creditManagementList,
    async ({ auth, body }) => records.managementList(db, callerOf(auth), body, now()),
    { roles: ANY },
  );
  route(app, api.creditInfo, async ({ auth, body }) => overview.subjectInfo(db, callerOf(auth), body, now()), {
    roles: ANY,
  });

  // records
  route(app, api.creditRecordList, async ({ auth, body }) => records.listRecords(db, callerOf(auth), body, now()), {
    roles: ANY,
  });
  route(app, api.creditRecordAdd, async ({ auth, body }) => records.addRecord(db, callerOf(auth), body, now()), {
    roles: SIDE,
    message: '保存成功',
  });
  route(app, api.creditRecordUpdate, async ({ auth, body }) => records.updateRecord(db, callerOf(auth), body, now()), {
    roles: SIDE,
    message: '保存成功',
  });
  route(
    app,
    api.creditRecordDelete,
    async ({ auth, body }) => {
      await records.deleteRecord(db, callerOf(auth), body);
      return null;
    },
    { roles: SIDE, message: '删除成功' },
  );
  route(app, api.creditRecordSubmit, async ({ auth, body }) => records.submitRecord(db, callerOf(auth), body, now()), {
    roles: SIDE,
    message: '提交成功',
  });
  route(app, api.creditRecordRevoke, async ({ auth, body }) => records.revokeRecord(db, callerOf(auth), body, now()), {
    roles: DECIDE,
    message: '操作成功',
  });
  route(app, api.creditRecordAudit, async ({ auth, body }) => records.auditRecord(db, callerOf(auth), body, now()), {
    roles: DECIDE,
    message: '操作成功',
  });
  route(app, api.creditAutoRetrieve, async ({ auth, body }) => records.autoRetrieve(db, callerOf(auth), body, now()), {
    roles: DECIDE,
  });
  route(app, api.creditRecordDescription, async () => overview.description(db), { roles: ANY });

  // levels
  route(app, api.creditLevelTitles, async () => levelTitles(db), { roles: ANY });
  route(
    app,
    api.creditLevelTitlesSave,
    async ({ auth, body }) => {
      await db.transaction((tx) => setLevels(tx, auth.actor, body, now()));
      return levelTitles(db);
    },
    { roles: ADMIN, message: '保存成功' },
  );

  // commitment letters
  route(app, api.creditLetterInfo, async ({ auth, body }) => letters.letterInfo(db, callerOf(auth), body, now()), {
    roles: ANY,
  });
  route(app, api.creditLetterSign, async ({ auth }) => letters.signLetter(db, callerOf(auth), now()), {
    roles: SIDE,
    message: '签署成功',
  });
  route(app, api.creditLetterList, async ({ auth, body }) => letters.letterList(db, callerOf(auth), body, now()), {
    roles: ANY,
  });

  // options, status
  route(app, api.creditQyTypes, async () => overview.enterpriseTypes(db), { roles: ANY });
  route(app, api.creditParticipatedStatus, async ({ auth }) => overview.participation(db, callerOf(auth), now()), {
    roles: ANY,
  });
  route(app, api.creditAdminSelectType, async ({ auth }) => overview.selectTypes(db, callerOf(auth)), {
    roles: ANY,
  });
  route(app, api.creditEntPullDown, async ({ auth, query }) => overview.enterprisePullDown(db, callerOf(auth), query), {
    roles: ANY,
  });
  route(
    app,
    api.creditPersonalPullDown,
    async ({ auth, query }) => overview.personPullDown(db, callerOf(auth), query),
    { roles: ANY },
  );
  route(app, api.creditCostEngineers, async ({ auth, query }) => overview.costEngineers(db, callerOf(auth), query), {
    roles: ANY,
  });
  route(
    app,
    api.creditPersonnelInfo,
    async ({ auth, query }) => overview.personInfo(db, callerOf(auth), query.id, now()),
    { roles: ANY },
  );

  // export answers a file, not the envelope (errors before the first byte still do)
  app.route({
    method: api.creditExport.method,
    url: api.creditExport.path,
    config: { public: false },
    handler: async (req, reply) => {
      if (!req.auth) throw unauthorized();
      if (!ANY.includes(req.auth.user.loginRoleType)) throw forbidden();
      const body = parse(api.creditExport.body, req.body);
      const file = await exportCredit(db, callerOf(req.auth), body, now());
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', contentDisposition(file.name))
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
  });

  // grades whose validity ran out are regraded on read, and by this sweep even if nobody reads them
  let timer: NodeJS.Timeout | null = null;
  const sweep = async () => {
    try {
      while ((await sweepExpired(db, now())) > 0) {
        // a batch at a time until none is left
      }
    } catch (e) {
      app.log.warn({ err: e }, 'credit grade sweep failed');
    }
  };
  app.addHook('onReady', async () => {
    timer = setInterval(sweep, SWEEP_EVERY_MS);
    timer.unref();
    setImmediate(sweep);
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}

async function levelTitles(db: Db) {
  return { baseScore: await baseScoreOf(db), levels: overview.levelRows(await levelsOf(db)) };
}

/** The public credit list: no sign-in (its contract says auth: false), outside the business scope. */
export function creditPublicRoutes(app: FastifyInstance, db: Db, now: () => Date) {
  route(app, api.creditPublicList, async ({ query }) => publicList(db, query, now()));
  route(app, api.creditPublicLevels, async () => ({ levels: overview.levelRows(await levelsOf(db)) }));
}
