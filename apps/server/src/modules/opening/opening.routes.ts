import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { contentDisposition } from '../../platform/content-disposition';
import { forbidden, parse, unauthorized } from '../../platform/errors';
import { route } from '../../platform/route';
import type { AuthContext } from '../auth/auth.service';
import { openingRecordPdf } from './opening.record';
import * as svc from './opening.service';

const ANY = ['M', 'D', 'U'];

const callerOf = (auth: AuthContext): svc.OpeningCaller => ({
  id: auth.user.id,
  loginRoleType: auth.user.loginRoleType,
  enterpriseId: auth.user.enterpriseId ?? null,
  actor: auth.actor,
});

/**
 * The remote opening hall (issue 17, /ks/trade/opening/v1/*). Every signed-in role may ask; the service decides who
 * is host, bidder or viewer of each section, and answers 404 for a section the caller may not enter.
 */
export function openingRoutes(app: FastifyInstance, deps: svc.OpeningDeps & { tz: string }) {
  route(app, api.openingSections, async ({ auth }) => svc.sectionList(deps, callerOf(auth)), { roles: ANY });
  route(app, api.openingHall, async ({ auth, query }) => svc.hall(deps, callerOf(auth), query.sectionId), {
    roles: ANY,
  });
  route(app, api.openingSignIn, async ({ auth, body }) => svc.signIn(deps, callerOf(auth), body.sectionId), {
    roles: ANY,
    message: '签到成功',
  });
  route(app, api.openingStart, async ({ auth, body }) => svc.start(deps, callerOf(auth), body), {
    roles: ANY,
    message: '已开标',
  });
  route(app, api.openingDecrypt, async ({ auth, body }) => svc.decrypt(deps, callerOf(auth), body), {
    roles: ANY,
    message: '投标文件解密成功',
  });
  route(app, api.openingDraw, async ({ auth, body }) => svc.draw(deps, callerOf(auth), body.sectionId), {
    roles: ANY,
    message: '已抽取唱标顺序',
  });
  route(app, api.openingRead, async ({ auth, body }) => svc.readNext(deps, callerOf(auth), body.sectionId), {
    roles: ANY,
    message: '已唱标',
  });
  route(app, api.openingRespond, async ({ auth, body }) => svc.respond(deps, callerOf(auth), body), {
    roles: ANY,
    message: '已提交',
  });
  route(app, api.openingAnswer, async ({ auth, body }) => svc.answer(deps, callerOf(auth), body), {
    roles: ANY,
    message: '已答复',
  });
  route(app, api.openingClose, async ({ auth, body }) => svc.close(deps, callerOf(auth), body.sectionId), {
    roles: ANY,
    message: '开标已结束',
  });

  // the record answers a PDF, not the envelope (errors before the first byte still do)
  app.route({
    method: api.openingRecord.method,
    url: api.openingRecord.path,
    handler: async (req, reply) => {
      if (!req.auth) throw unauthorized();
      if (!ANY.includes(req.auth.user.loginRoleType)) throw forbidden();
      const q = parse(api.openingRecord.query, req.query);
      const { hall, hostName } = await svc.recordHall(deps, callerOf(req.auth), q.sectionId);
      const pdf = openingRecordPdf(hall, hostName, deps.tz, svc.money);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition(`开标记录-${hall.section.code}.pdf`))
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  });
}
