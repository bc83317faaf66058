import { api } from '@ks/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { parse } from '../../platform/errors';
import { route } from '../../platform/route';
import { escapeHtml } from '../../platform/sanitize';
import type { AuthContext, AuthService } from '../auth/auth.service';
import { createWechatService } from './wechat.service';

/**
 * WeChat QR sign-in and binding (issue 15) and the login mode. qrcode and scan-status serve anyone (a login ticket) and
 * the signed-in caller (a bind ticket: the bearer token is read here); the callback answers an HTML page.
 */
export function wechatRoutes(
  app: FastifyInstance,
  deps: { db: Db; auth: AuthService; config: Config; now: () => Date },
) {
  const wechat = createWechatService({
    db: deps.db,
    auth: deps.auth,
    config: deps.config,
    now: deps.now,
    warn: (msg) => app.log.warn(msg),
  });

  /** The caller of a public route when a bearer token is sent (an invalid one is refused with its 401 code). */
  const callerOf = async (req: FastifyRequest): Promise<AuthContext | null> => {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
    return token ? deps.auth.authenticate(token, req.ip) : null;
  };
  const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

  route(app, api.loginMode, async () => wechat.loginMode());

  route(
    app,
    api.wechatQrcode,
    async ({ req, query, reply }) => {
      reply.header('cache-control', 'no-store');
      return wechat.qrcode(query.purpose, query.purpose === 'bind' ? await callerOf(req) : null);
    },
    { rateLimit: { max: 60, timeWindow: '1 minute' } },
  );

  route(app, api.wechatScanStatus, async ({ req, body }) => {
    return wechat.scanStatus(body.state, await callerOf(req), meta(req));
  });

  app.route({
    method: api.wechatVerify.method,
    url: api.wechatVerify.path,
    config: { public: true, rateLimit: { max: 60, timeWindow: '1 minute' } },
    handler: async (req, reply) => {
      const q = parse(api.wechatVerify.query, req.query);
      const page = await wechat.verify(q);
      const ok = page.status === 200 && page.title === '扫码成功';
      return reply
        .status(page.status)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title></head>` +
            `<body style="font-family:sans-serif;text-align:center;padding:32px 12px;color:${ok ? '#389e0d' : '#cf1322'}">` +
            `<h3 data-wechat-result="${ok ? 'ok' : 'error'}">${escapeHtml(page.title)}</h3>` +
            `<p style="color:#666">${escapeHtml(page.text)}</p></body></html>`,
        );
    },
  });

  route(app, api.wechatList, async ({ auth }) => wechat.list(auth));

  route(
    app,
    api.wechatRemove,
    async ({ auth, body }) => {
      await wechat.remove(auth, body.id);
      return null;
    },
    { message: '已解除绑定' },
  );
}
