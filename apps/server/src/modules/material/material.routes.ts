import multipart from '@fastify/multipart';
import { api, MATERIAL_LIMITS, MATERIAL_MSG, materialImportFieldsSchema } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { contentDisposition } from '../../platform/content-disposition';
import { badRequest, forbidden, unauthorized, validationFailed } from '../../platform/errors';
import { route } from '../../platform/route';
import { XLSX_TYPE } from '../engine/export.service';
import { discard, readForm, type Spooled, spool } from '../files/multipart';
import * as repo from './material.repo';
import * as svc from './material.service';
import { materialTemplate } from './material.xlsx';

const MB = MATERIAL_LIMITS.maxBytes / 1024 / 1024;
const ANY = ['M', 'D', 'U'];
const fileError = (message: string) =>
  badRequest(message, { errors: [{ row: 0, column: '', reason: message }], errorCount: 1 });

/**
 * 材料信息价 (issue 19). Public (no sign-in): `/ks/material/price/*` read one published period of a city (the newest
 * unless named), `/ks/material/history/*` a city's published periods. Administration under `/ks/material/admin/*`:
 * administrators change, developers read; anyone else 403.
 */
export async function materialRoutes(app: FastifyInstance, deps: svc.MaterialDeps & { spoolDir: string }) {
  const { db } = deps;
  route(app, api.materialPricePeriods, async ({ query }) => repo.publishedPeriods(db, query.city));
  route(app, api.materialHistoryPeriods, async ({ query }) => repo.publishedPeriods(db, query.city, true));
  route(app, api.materialPriceCities, async ({ body }) => repo.citiesWithPublished(db, body.period));
  route(app, api.materialHistoryCities, async () => repo.citiesWithPublished(db));
  route(app, api.materialPriceTitles, async ({ body }) =>
    repo.titles(db, await svc.scopeIds(deps, 'price', body), body.keyWord),
  );
  route(app, api.materialHistoryTitles, async ({ body }) =>
    repo.titles(db, await svc.scopeIds(deps, 'history', body), body.keyWord),
  );
  route(app, api.materialPriceInfo, async ({ body }) => svc.priceInfo(deps, body));
  route(app, api.materialHistoryInfo, async ({ body }) => svc.historyInfo(deps, body));
  route(app, api.materialPriceClassifications, async ({ body }) =>
    repo.facet(db, await svc.scopeIds(deps, 'price', body), 'classification'),
  );
  route(app, api.materialHistoryClassifications, async ({ body }) =>
    repo.facet(db, await svc.scopeIds(deps, 'history', body), 'classification'),
  );
  route(app, api.materialPriceGroups, async ({ body }) =>
    repo.facet(db, await svc.scopeIds(deps, 'price', body), 'materialGroup', body),
  );
  route(app, api.materialHistoryGroups, async ({ body }) =>
    repo.facet(db, await svc.scopeIds(deps, 'history', body), 'materialGroup', body),
  );
  route(app, api.materialPriceCounties, async ({ body }) =>
    repo.facet(db, await svc.scopeIds(deps, 'price', body), 'county'),
  );
  route(app, api.materialHistoryCounties, async ({ body }) =>
    repo.facet(db, await svc.scopeIds(deps, 'history', body), 'county'),
  );
  route(app, api.materialHistory, async ({ body }) => svc.trend(deps, body));

  // administration
  route(
    app,
    api.materialAdminPeriods,
    async ({ auth, query }) => svc.adminPeriods(deps, svc.materialCallerOf(auth), query),
    { roles: ANY },
  );
  route(app, api.materialAdminRows, async ({ auth, body }) => svc.adminRows(deps, svc.materialCallerOf(auth), body), {
    roles: ANY,
  });
  route(app, api.materialPublish, async ({ auth, body }) => svc.publish(deps, svc.materialCallerOf(auth), body.id), {
    roles: ANY,
    message: '发布成功',
  });
  route(app, api.materialWithdraw, async ({ auth, body }) => svc.withdraw(deps, svc.materialCallerOf(auth), body.id), {
    roles: ANY,
    message: '撤回成功',
  });
  route(app, api.materialDelete, async ({ auth, body }) => svc.remove(deps, svc.materialCallerOf(auth), body.id), {
    roles: ANY,
    message: '删除成功',
  });
  // the template is a file, not the envelope
  const template = materialTemplate();
  app.route({
    method: api.materialTemplate.method,
    url: api.materialTemplate.path,
    config: { public: false },
    handler: async (req, reply) => {
      if (!req.auth) throw unauthorized();
      if (!ANY.includes(req.auth.user.loginRoleType)) throw forbidden();
      svc.requireReader(svc.materialCallerOf(req.auth));
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', contentDisposition('材料信息价导入模板.xlsx'))
        .header('cache-control', 'no-store')
        .send(template);
    },
  });

  await app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: true });
    route(
      scope,
      api.materialImport,
      async ({ req, auth }) => {
        const c = svc.materialCallerOf(auth);
        // who may import, before anything is read
        svc.requireManager(c);
        let spooled: Spooled | null = null;
        let fileName = '';
        try {
          const { fields } = await readForm(req, { fileSize: MATERIAL_LIMITS.maxBytes, files: 1 }, async (part) => {
            fileName = part.filename;
            if (!/\.xlsx$/i.test(part.filename)) {
              part.file.resume();
              throw fileError(MATERIAL_MSG.wrongType);
            }
            spooled = await spool(part.file, deps.spoolDir, {
              max: MATERIAL_LIMITS.maxBytes,
              tooLarge: MATERIAL_MSG.tooLarge(MB),
            });
          });
          const parsed = materialImportFieldsSchema.safeParse(fields);
          if (!parsed.success) {
            throw validationFailed(z.flattenError(parsed.error).fieldErrors as Record<string, string[]>);
          }
          const file = spooled as Spooled | null;
          if (!file) throw fileError(MATERIAL_MSG.emptyFile);
          return await svc.importPeriod(deps, c, { ...parsed.data, fileName, path: file.path });
        } finally {
          await discard(spooled);
        }
      },
      { roles: ANY, message: '导入成功', rateLimit: { max: 20, timeWindow: '1 minute' } },
    );
  });
}
