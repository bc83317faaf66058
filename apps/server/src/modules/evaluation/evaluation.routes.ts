import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { contentDisposition } from '../../platform/content-disposition';
import { forbidden, parse, unauthorized } from '../../platform/errors';
import { route } from '../../platform/route';
import { callerOf } from './evaluation.deps';
import { evaluationReportPdf, evaluationReportXlsx } from './evaluation.report';
import * as svc from './evaluation.service';

const ANY = ['M', 'D', 'U'];

/**
 * Bid evaluation (issue 17, /ks/trade/review/*, result-list, export-result). Every signed-in role may ask; the service
 * decides who is host, member or viewer of each section and answers 404 for a section the caller may not look into.
 */
export function evaluationRoutes(app: FastifyInstance, deps: svc.EvalDeps) {
  route(app, api.evalSections, async ({ auth }) => svc.sectionList(deps, callerOf(auth)), { roles: ANY });
  route(app, api.evalRoom, async ({ auth, query }) => svc.room(deps, callerOf(auth), query.sectionId), { roles: ANY });
  route(
    app,
    api.evalExtractions,
    async ({ auth, query }) => svc.extractionOptions(deps, callerOf(auth), query.sectionId),
    {
      roles: ANY,
    },
  );
  route(app, api.evalBegin, async ({ auth, body }) => svc.begin(deps, callerOf(auth), body), {
    roles: ANY,
    message: '已开始评标',
  });
  route(app, api.evalMethod, async ({ auth, body }) => svc.setMethod(deps, callerOf(auth), body), {
    roles: ANY,
    message: '评标办法已保存',
  });
  route(app, api.evalDeclare, async ({ auth, body }) => svc.declare(deps, callerOf(auth), body), {
    roles: ANY,
    message: '回避声明已签署',
  });
  route(app, api.evalSignIn, async ({ auth, body }) => svc.signIn(deps, callerOf(auth), body), {
    roles: ANY,
    message: '签到成功',
  });
  route(app, api.evalVote, async ({ auth, body }) => svc.vote(deps, callerOf(auth), body), {
    roles: ANY,
    message: '已投票',
  });
  route(app, api.evalPrincipal, async ({ auth, body }) => svc.updatePrincipal(deps, callerOf(auth), body), {
    roles: ANY,
    message: '评标委员会负责人已确定',
  });
  route(app, api.evalSave, async ({ auth, body }) => svc.save(deps, callerOf(auth), body), {
    roles: ANY,
    message: '评分已保存',
  });
  route(app, api.evalSubmit, async ({ auth, body }) => svc.submit(deps, callerOf(auth), body), {
    roles: ANY,
    message: '评审结果已提交',
  });
  route(app, api.evalReopen, async ({ auth, body }) => svc.reopen(deps, callerOf(auth), body), {
    roles: ANY,
    message: '已退回重评',
  });
  route(app, api.evalClarify, async ({ auth, body }) => svc.askClarification(deps, callerOf(auth), body), {
    roles: ANY,
    message: '澄清要求已发出',
  });
  route(app, api.evalClarifyRevoke, async ({ auth, body }) => svc.revokeClarification(deps, callerOf(auth), body), {
    roles: ANY,
    message: '澄清要求已撤回',
  });
  route(app, api.evalClarifyAnswer, async ({ auth, body }) => svc.answerClarification(deps, callerOf(auth), body), {
    roles: ['U'],
    message: '澄清已答复',
  });
  route(app, api.evalRender, async ({ auth, body }) => svc.render(deps, callerOf(auth), body.sectionId), {
    roles: ANY,
    message: '评标结果已汇总',
  });
  route(app, api.evalSignReport, async ({ auth, body }) => svc.signReport(deps, callerOf(auth), body), {
    roles: ANY,
    message: '评标报告已签署',
  });

  route(app, api.evalPublish, async ({ auth, body }) => svc.publish(deps, callerOf(auth), body), {
    roles: ANY,
    message: '中标候选人已公示',
  });
  route(app, api.evalObjection, async ({ auth, body }) => svc.object(deps, callerOf(auth), body), {
    roles: ANY,
    message: '异议已提交',
  });
  route(app, api.evalObjectionAnswer, async ({ auth, body }) => svc.answerObjection(deps, callerOf(auth), body), {
    roles: ANY,
    message: '已答复',
  });
  route(app, api.evalAward, async ({ auth, body }) => svc.award(deps, callerOf(auth), body.sectionId), {
    roles: ANY,
    message: '中标人已确定，中标结果公告已发布',
  });
  route(app, api.evalOutcome, async ({ auth, query }) => svc.bidderOutcome(deps, callerOf(auth), query.sectionId), {
    roles: ANY,
  });
  route(app, api.tradeButtons, async ({ auth, query }) => svc.buttons(deps, callerOf(auth), query.sectionId), {
    roles: ANY,
  });
  route(app, api.tradeOverview, async ({ auth, query }) => svc.tradeOverview(deps, callerOf(auth), query.sectionId), {
    roles: ANY,
  });
  app.route({
    method: api.evalAwardNotice.method,
    url: api.evalAwardNotice.path,
    handler: async (req, reply) => {
      if (!req.auth) throw unauthorized();
      if (!ANY.includes(req.auth.user.loginRoleType)) throw forbidden();
      const q = parse(api.evalAwardNotice.query, req.query);
      const { name, pdf } = await svc.awardNotice(deps, callerOf(req.auth), q.sectionId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition(name))
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  });

  // the report and the bid documents answer files, not the envelope (errors before the first byte still do)
  app.route({
    method: api.evalExport.method,
    url: api.evalExport.path,
    handler: async (req, reply) => {
      if (!req.auth) throw unauthorized();
      if (!ANY.includes(req.auth.user.loginRoleType)) throw forbidden();
      const q = parse(api.evalExport.query, req.query);
      const { room, scores } = await svc.reportRoom(deps, callerOf(req.auth), q.sectionId);
      const name = `评标报告-${room.section.code}.${q.format}`;
      const body =
        q.format === 'pdf'
          ? evaluationReportPdf(room, scores, deps.tz)
          : await evaluationReportXlsx(room, scores, deps.tz);
      return reply
        .header(
          'content-type',
          q.format === 'pdf' ? 'application/pdf' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        )
        .header('content-disposition', contentDisposition(name))
        .header('cache-control', 'no-store')
        .send(body);
    },
  });
  app.route({
    method: api.evalDocument.method,
    url: api.evalDocument.path,
    handler: async (req, reply) => {
      if (!req.auth) throw unauthorized();
      if (!ANY.includes(req.auth.user.loginRoleType)) throw forbidden();
      const q = parse(api.evalDocument.query, req.query);
      const doc = await svc.document(deps, callerOf(req.auth), q);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', contentDisposition(doc.fileName))
        .header('cache-control', 'no-store')
        .send(doc.stream);
    },
  });
}
