import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { parse, unauthorized } from '../../platform/errors';
import { route } from '../../platform/route';
import * as deposits from './deposits.service';
import * as letters from './guarantees.service';

/**
 * Deposits and guarantee letters (issue 16), in the business scope (418 for an incomplete enterprise). Role types are
 * checked before the input is read; ownership and the centre's steps are the services'.
 */
const READ = ['M', 'D', 'U'];

export function depositsRoutes(app: FastifyInstance, deps: letters.GuaranteeDeps) {
  const { db } = deps;
  const ctx = () => ({ issuer: letters.issuerInfo(deps.issuer), now: deps.now() });
  const me = deposits.depositCallerOf;

  route(
    app,
    api.depositList,
    async ({ auth, body }) => ({
      issuer: letters.issuerInfo(deps.issuer),
      deposits: await deposits.listDeposits(db, me(auth), body.sectionId, ctx()),
      guarantees: await letters.listGuarantees(db, me(auth), body.sectionId),
    }),
    { roles: READ },
  );
  route(
    app,
    api.depositPaymentStatus,
    async ({ auth, body }) => deposits.sectionStatus(db, me(auth), body.sectionId, ctx()),
    {
      roles: READ,
    },
  );
  route(app, api.depositPay, async ({ auth, body }) => deposits.pay(db, me(auth), body, ctx()), {
    roles: ['U'],
    message: '已登记缴纳，待交易中心确认到账',
  });
  route(app, api.depositReceived, async ({ auth, body }) => deposits.receive(db, me(auth), body, ctx()), {
    roles: ['M'],
    message: '已确认到账',
  });
  route(app, api.depositRefund, async ({ auth, body }) => deposits.refund(db, me(auth), body, ctx()), {
    roles: ['M'],
    message: '已退还',
  });
  route(app, api.depositDelay, async ({ auth, body }) => deposits.delay(db, me(auth), body, ctx()), {
    roles: ['M'],
    message: '缴纳截止时间已延长',
  });
  route(app, api.guaranteeIssuer, async () => letters.issuerInfo(deps.issuer), { roles: READ });
  route(app, api.guaranteeApply, async ({ auth, body }) => letters.apply(deps, me(auth), body.sectionId), {
    roles: ['U'],
    message: '已生成保函申请，请补充附件后提交审核',
  });
  route(app, api.guaranteeResult, async ({ auth, body }) => letters.result(deps, me(auth), body.id), { roles: READ });
  route(app, api.guaranteeRetry, async ({ auth, body }) => letters.retry(deps, me(auth), body.id), {
    roles: ['M', 'U'],
    message: '已重新提交出函机构',
  });
  app.route({
    method: 'GET',
    url: api.guaranteeFile.path,
    handler: async (req, reply) => {
      if (!req.auth) throw unauthorized();
      const { id } = parse(api.guaranteeFile.query, req.query);
      return letters.sendLetter(deps, me(req.auth), id, req, reply);
    },
  });
}

/** The background pass over letters waiting on the issuer (every `seconds`; 0: none). Answers the stopper. */
export function startGuaranteePoller(deps: letters.GuaranteeDeps, seconds: number): () => void {
  if (!deps.issuer || seconds <= 0) return () => undefined;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    letters
      .advancePending(deps)
      .catch((err) => deps.log?.warn({ err }, 'guarantee poll failed'))
      .finally(() => {
        running = false;
      });
  }, seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
