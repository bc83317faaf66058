import { api, CA_MSG } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../platform/route';
import type { CaService } from './ca.service';

/**
 * CA certificate sign-in (/caLogin, /caLoginPage, /caRegister: public) and the bindings of /lock (signed in). The public
 * calls that check a certificate or a password are rate-limited like the sign-in.
 */
export function caRoutes(app: FastifyInstance, ca: CaService, loginPerMinute = 30) {
  const limited = { rateLimit: { max: loginPerMinute, timeWindow: '1 minute' } };
  const meta = (req: { ip: string; headers: Record<string, unknown> }) => ({
    ip: req.ip,
    userAgent: String(req.headers['user-agent'] ?? ''),
  });

  route(app, api.caConfig, async () => ca.configInfo());
  route(
    app,
    api.caNonce,
    async ({ reply }) => {
      reply.header('cache-control', 'no-store');
      return ca.issueNonce();
    },
    { rateLimit: { max: Math.max(60, loginPerMinute * 2), timeWindow: '1 minute' } },
  );
  route(app, api.caEntInfo, async ({ body }) => ca.entInfo(body.certificate), {
    rateLimit: { max: Math.max(60, loginPerMinute * 2), timeWindow: '1 minute' },
  });
  route(app, api.caSignIn, async ({ req, body }) => ca.signIn(body, meta(req)), {
    message: CA_MSG.signedIn,
    ...limited,
  });
  route(app, api.caLogin, async ({ req, body }) => ca.signIn(body, meta(req)), {
    message: CA_MSG.signedIn,
    ...limited,
  });
  route(app, api.caRegister, async ({ req, body }) => ca.register(body, meta(req)), {
    message: CA_MSG.bound,
    ...limited,
  });
  route(app, api.caBindings, async ({ auth, query }) => ca.list(auth, query), { roles: ['M', 'U'] });
  route(app, api.caBind, async ({ auth, body }) => ca.bind(auth, body), { roles: ['U'], message: CA_MSG.bound });
  route(
    app,
    api.caUnbind,
    async ({ auth, body }) => {
      await ca.unbind(auth, body.id);
      return null;
    },
    { roles: ['M', 'U'], message: CA_MSG.unbound },
  );
}
