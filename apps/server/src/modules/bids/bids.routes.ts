import multipart, { type MultipartFile } from '@fastify/multipart';
import { api, BID_CIPHER_CHUNK, bidChunkFormSchema } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../platform/envelope';
import { badRequest, forbidden, parse, unauthorized } from '../../platform/errors';
import { route } from '../../platform/route';
import type { AuthContext } from '../auth/auth.service';
import { readForm, unexpectedFile } from '../files/multipart';
import * as svc from './bids.service';

const SWEEP_EVERY_MS = 10 * 60_000;
const ANY = ['M', 'D', 'U'];
const BIDDER = ['U'];

const callerOf = (auth: AuthContext): svc.BidCaller => ({
  id: auth.user.id,
  loginRoleType: auth.user.loginRoleType,
  enterpriseId: auth.user.enterpriseId ?? null,
  actor: auth.actor,
});

/**
 * Sealed bids (issue 16, /ks/trade/bid/v1/*). Keys and uploads are bidders' (U accounts of an enterprise); the two
 * reads of a bid answer every role, so that each refused attempt — an administrator's included — is logged.
 */
export function bidsRoutes(app: FastifyInstance, deps: svc.BidsDeps) {
  app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: true });
    register(scope, deps);
  });
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      svc.sweep(deps).catch((e) => app.log.warn({ err: e }, 'bid upload sweep failed'));
    }, SWEEP_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}

function register(app: FastifyInstance, deps: svc.BidsDeps) {
  route(app, api.bidKey, async ({ auth }) => svc.keyState(deps, callerOf(auth)), { roles: BIDDER });
  route(app, api.bidKeySave, async ({ auth, body }) => svc.saveKey(deps, callerOf(auth), body), {
    roles: BIDDER,
    message: '加密密钥已设置',
  });
  route(app, api.bidKeyById, async ({ auth, query }) => svc.keyById(deps, callerOf(auth), query.id), {
    roles: BIDDER,
  });
  route(app, api.bidSections, async ({ auth }) => svc.sections(deps, callerOf(auth)), { roles: BIDDER });
  route(app, api.bidOverview, async ({ auth, query }) => svc.overview(deps, callerOf(auth), query.id), {
    roles: BIDDER,
  });
  route(app, api.bidTask, async ({ auth, body }) => svc.startUpload(deps, callerOf(auth), body), { roles: BIDDER });
  route(app, api.bidFinish, async ({ auth, body }) => svc.finishUpload(deps, callerOf(auth), body), {
    roles: BIDDER,
    message: '投标文件已加密封存',
  });
  route(app, api.bidWithdraw, async ({ auth, body }) => svc.withdraw(deps, callerOf(auth), body.id), {
    roles: BIDDER,
    message: '投标文件已撤回',
  });

  // one ciphertext chunk: the fields come first, the chunk streams straight into the store
  app.route({
    method: api.bidChunk.method,
    url: api.bidChunk.path,
    handler: async (req) => {
      if (!req.auth) throw unauthorized();
      if (!BIDDER.includes(req.auth.user.loginRoleType)) throw forbidden();
      const c = callerOf(req.auth);
      let result: Awaited<ReturnType<typeof svc.putChunk>> | null = null;
      await readForm(req, { fileSize: BID_CIPHER_CHUNK, files: 1 }, async (part: MultipartFile, before) => {
        if (part.fieldname !== 'file') return unexpectedFile(part);
        const ready = bidChunkFormSchema.safeParse(before);
        if (!ready.success) {
          part.file.resume();
          throw badRequest('请先发送 uploadId、chunk 与 sha256 字段，再发送分片');
        }
        result = await svc.putChunk(deps, c, ready.data.uploadId, ready.data.chunk, ready.data.sha256, part.file);
      });
      if (!result) {
        parse(bidChunkFormSchema, {});
        throw badRequest('没有收到分片');
      }
      return ok(result);
    },
  });

  for (const def of [api.bidCipher, api.bidContent]) {
    app.route({
      method: def.method,
      url: def.path,
      handler: async (req, reply) => {
        if (!req.auth) throw unauthorized();
        if (!ANY.includes(req.auth.user.loginRoleType)) throw forbidden();
        const c = callerOf(req.auth);
        if (def === api.bidContent) {
          const q = parse(api.bidContent.query, req.query);
          return svc.content(deps, c, q.id);
        }
        const q = parse(api.bidCipher.query, req.query);
        const { stream, size } = await svc.cipherChunk(deps, c, q.id, q.chunk);
        reply.header('Content-Type', 'application/octet-stream');
        reply.header('Content-Length', String(size));
        reply.header('Content-Disposition', 'attachment; filename="bid.part"');
        reply.header('Cache-Control', 'no-store');
        reply.header('X-Content-Type-Options', 'nosniff');
        return reply.send(stream);
      },
    });
  }
}
