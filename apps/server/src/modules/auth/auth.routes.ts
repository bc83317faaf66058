import { api, rolesFor } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../platform/route';
import type { AuthService } from './auth.service';

export function authRoutes(app: FastifyInstance, auth: AuthService, loginPerMinute = 30) {
  route(app, api.publicKey, async ({ reply }) => {
    reply.header('cache-control', 'no-store');
    return auth.publicKeyWithNonce();
  });

  route(
    app,
    api.captchaNeeded,
    async ({ req, body }) => ({ captchaRequired: await auth.captchaNeeded(body.logValue, req.ip) }),
    {
      rateLimit: { max: 60, timeWindow: '1 minute' },
    },
  );

  route(
    app,
    api.updateSecret,
    async ({ auth: ctx, body }) => {
      await auth.updateSecret(ctx, body);
      return null;
    },
    { message: '密码已修改', rateLimit: { max: 10, timeWindow: '1 minute' } },
  );

  route(
    app,
    api.captcha,
    async ({ reply }) => {
      reply.header('cache-control', 'no-store');
      return auth.createCaptcha();
    },
    { rateLimit: { max: 60, timeWindow: '1 minute' } },
  );

  route(
    app,
    api.login,
    async ({ req, body }) => auth.login(body, { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') }),
    { message: '登录成功', rateLimit: { max: loginPerMinute, timeWindow: '1 minute' } },
  );

  route(
    app,
    api.logout,
    async ({ auth: ctx }) => {
      await auth.logout(ctx);
      return null;
    },
    { message: '已退出登录' },
  );

  route(app, api.checkLogin, async ({ auth: ctx }) => ({
    userInfo: await auth.buildUserInfo(ctx.user),
    roles: rolesFor(ctx.user.loginRoleType),
  }));

  // rotating refresh tokens (issue 15): the old pair ends, a replayed old refresh token ends the whole family
  route(
    app,
    api.refreshToken,
    async ({ req, body, reply }) => {
      reply.header('cache-control', 'no-store');
      return auth.refresh(body.refreshToken, { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });
    },
    { rateLimit: { max: Math.max(loginPerMinute, 60), timeWindow: '1 minute' } },
  );

  route(app, api.loginDevices, async ({ auth: ctx }) => auth.loginDevices(ctx));
}
