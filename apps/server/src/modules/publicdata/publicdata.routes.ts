import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { contentDisposition } from '../../platform/content-disposition';
import { forbidden, parse, unauthorized } from '../../platform/errors';
import { route } from '../../platform/route';
import * as svc from './publicdata.service';

const ANY = ['M', 'D', 'U'];

/**
 * 公共数据 (issue 19, /ks/public-data/v1/*): published data, read by every signed-in role alike (no scope: it is
 * public). Outside the 418 gate, as the other shell services that show published things.
 */
export function publicDataRoutes(app: FastifyInstance, deps: svc.PublicDataDeps) {
  route(app, api.publicDetailsList, ({ query }) => svc.detailsList(deps, query), { roles: ANY });
  route(app, api.publicDetails, ({ query }) => svc.details(deps, query.id), { roles: ANY });
  route(app, api.publicPriceLimits, ({ query }) => svc.priceLimits(deps, query), { roles: ANY });
  route(app, api.publicPersons, ({ query }) => svc.persons(deps, query), { roles: ANY });
  route(app, api.publicPerson, ({ query }) => svc.person(deps, query.id), { roles: ANY });
  route(app, api.publicIndicators, ({ query }) => svc.indicators(deps, query), { roles: ANY });
  route(app, api.publicReport, ({ query }) => svc.report(deps, query), { roles: ANY });
  // the PDF answers the file, not the envelope (errors before the first byte still do)
  app.route({
    method: api.publicReportPdf.method,
    url: api.publicReportPdf.path,
    handler: async (req, reply) => {
      if (!req.auth) throw unauthorized();
      if (!ANY.includes(req.auth.user.loginRoleType)) throw forbidden();
      const q = parse(api.publicReportPdf.query, req.query);
      const file = await svc.reportFile(deps, q);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition(file.name))
        .header('cache-control', 'no-store')
        .send(file.pdf);
    },
  });
}
