import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { api, Code, Msg, setAppTimeZone } from '@ks/contracts';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import { isDatabaseUnavailable } from './db/sql';
import { accountCentreRoutes } from './modules/account-centre/account-centre.routes';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { companyInfoGate } from './modules/accounts/company-info.gate';
import { authRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { bidsRoutes } from './modules/bids/bids.routes';
import { caRoutes } from './modules/ca/ca.routes';
import { createCaService } from './modules/ca/ca.service';
import { type CostRunner, createCostRunner } from './modules/cost/cost.jobs';
import { costRoutes } from './modules/cost/cost.routes';
import { changePublicRoutes, changeRoutes, registerChangeHooks } from './modules/credit/changes';
import { creditPublicRoutes, creditRoutes } from './modules/credit/credit.routes';
import { depositsRoutes, startGuaranteePoller } from './modules/deposits/deposits.routes';
import { registerGuaranteeHooks } from './modules/deposits/guarantees.service';
import { createDexRunner, type DexRunner } from './modules/dex/dex.outbox';
import { dexRoutes } from './modules/dex/dex.routes';
import { createDexSyncRunner, type DexSyncRunner } from './modules/dex/dex.sync';
import { engineRoutes } from './modules/engine/engine.routes';
import { evaluationRoutes } from './modules/evaluation/evaluation.routes';
import { expertsRoutes } from './modules/experts/experts.routes';
import { feedbackRoutes } from './modules/feedback/feedback.routes';
import { filesRoutes } from './modules/files/files.routes';
import { helpRoutes } from './modules/help/help.routes';
import { ledgerRoutes } from './modules/ledger/ledger.routes';
import { libraryRoutes } from './modules/library/library.routes';
import { createLiveHub, type LiveHub, type LiveHubDeps } from './modules/live/hub';
import { liveRoutes } from './modules/live/live.routes';
import { materialRoutes } from './modules/material/material.routes';
import { messagesRoutes } from './modules/messages/messages.routes';
import { monitorRoutes } from './modules/monitor/monitor.routes';
import { systemNoticesRoutes } from './modules/notices/system-notices.routes';
import { openingRoutes } from './modules/opening/opening.routes';
import { registerPerformanceHooks } from './modules/performance/performance';
import { performanceRoutes } from './modules/performance/performance.routes';
import { portalRoutes } from './modules/portal/portal.routes';
import { publicDataRoutes } from './modules/publicdata/publicdata.routes';
import { registerRoutes } from './modules/register/register.routes';
import { registerRegistrationHooks } from './modules/register/registration.service';
import { shellRoutes } from './modules/shell/shell.routes';
import { smsRoutes } from './modules/sms/sms.routes';
import { createSmsService, type SmsService } from './modules/sms/sms.service';
import { statsRoutes } from './modules/stats/stats.routes';
import { tenderFilesRoutes } from './modules/tender/files.routes';
import { registerNoticeHooks } from './modules/tender/notice.service';
import { tenderRoutes } from './modules/tender/tender.routes';
import { venuePublicRoutes, venueRoutes } from './modules/venue/venue.routes';
import { weatherRoutes } from './modules/weather/weather.routes';
import { wechatRoutes } from './modules/wechat/wechat.routes';
import { cacheStats } from './platform/cache';
import { fail, ok } from './platform/envelope';
import { AppError } from './platform/errors';
import { createGuaranteeIssuer } from './platform/integrations/guarantee-issuer';
import { buildOpenApi } from './platform/openapi';
import { createStorage, type Storage, type StorageHealth } from './platform/storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** this process's live channel (issue 14) */
    live: LiveHub;
    /** SMS verification codes (issue 15): registration and account steps ask and check codes through it */
    sms: SmsService;
    /** cost-file detections of this process (issue 18) */
    costRunner: CostRunner;
    /** pushes to the upstream platform from this process (issue 19) */
    dexRunner: DexRunner;
    /** registration syncs from the upstream platform run by this process (issue 19) */
    dexSyncRunner: DexSyncRunner;
  }
}

export interface AppDeps {
  config: Config;
  db: Db;
  /** false in tests; pino options otherwise */
  logger?: FastifyServerOptions['logger'];
  now?: () => Date;
  /** where file bytes go; from the configuration (DATA_DIR/files or S3) unless given */
  storage?: Storage;
  /** the database's LISTEN (Database.listen), by which the live channel hears of events from every process */
  listen?: Database['listen'];
  /** options of the live channel's hub (tests shorten its intervals) */
  live?: Pick<LiveHubDeps, 'heartbeatMs' | 'sessionCheckMs'>;
  /** the state of the database's listening connection (Database.listenerState), for /ks/health/ready */
  listenerState?: Database['listenerState'];
}

const SERVER_VERSION: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    return pkg.version;
  } catch {
    return '0.0.0';
  }
})();

/** The version the web app compares: server version plus a digest of the built index.html. */
export function appVersion(webDist: string | null): string {
  if (webDist) {
    const index = path.join(webDist, 'index.html');
    if (existsSync(index)) {
      return `${SERVER_VERSION}+${createHash('sha256').update(readFileSync(index)).digest('hex').slice(0, 10)}`;
    }
  }
  return SERVER_VERSION;
}

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The client configuration the web app needs before its first request, as meta tags (the CSP allows no inline script). */
export function injectClientConfig(
  html: string,
  config: Pick<Config, 'loginMode' | 'bidHallUrl' | 'platformName' | 'timeZone'>,
): string {
  const tags = [
    `<meta name="ks-login-mode" content="${escapeAttr(config.loginMode)}">`,
    `<meta name="ks-bid-hall" content="${escapeAttr(config.bidHallUrl ?? '')}">`,
    `<meta name="ks-time-zone" content="${escapeAttr(config.timeZone)}">`,
  ].join('');
  const withTitle = html.replace(/<title>[^<]*<\/title>/, `<title>${escapeAttr(config.platformName)}</title>`);
  if (/<meta charset[^>]*>/i.test(withTitle)) return withTitle.replace(/<meta charset[^>]*>/i, (m) => `${m}${tags}`);
  if (/<head[^>]*>/i.test(withTitle)) return withTitle.replace(/<head[^>]*>/i, (h) => `${h}${tags}`);
  return withTitle.replace(/^(<!doctype html>)?/i, (d) => `${d}${tags}`);
}

const REQUEST_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** What a session may call while its account must change the password (codeStatus 1). */
const MUST_CHANGE_ALLOWED = new Set(
  [api.updateSecret, api.logout, api.checkLogin, api.secretTime].map((e) => `${e.method} ${e.path}`),
);

/** The headers helmet sets with these options, as name/value pairs (helmet run once against a recording response). */
export function securityHeadersOf(options: HelmetOptions): [string, string][] {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader: (name: string) => {
      headers.delete(name.toLowerCase());
    },
  };
  let failed: unknown = null;
  helmet(options)({} as never, res as never, (err?: unknown) => {
    failed = err ?? null;
  });
  if (failed) throw failed;
  return [...headers];
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  // the zone of every date rule in this process (APP_TZ): today, now, times shown in messages and exports
  setAppTimeZone(config.timeZone);
  const webDist = config.webDist && existsSync(path.join(config.webDist, 'index.html')) ? config.webDist : null;
  const version = appVersion(webDist);
  const indexHtml = webDist ? injectClientConfig(readFileSync(path.join(webDist, 'index.html'), 'utf8'), config) : '';

  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // spec §7 writes some paths with a trailing slash (`display-groups/?systemCoding=`): both forms are one route
    routerOptions: { ignoreTrailingSlash: true },
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
  });

  app.decorateRequest('auth', null);
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  // Security headers (helmet's, configured once): worked out once at start-up and set on every answer — helmet's
  // Fastify plugin built its middleware again for every request.
  const securityHeaders = securityHeadersOf({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // WebAssembly may be compiled (not JavaScript evaluated): the SHA-256 of sealed bids (hash-wasm)
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        // antd writes its styles at run time (CSS-in-JS).
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // the CA pages ask the local signing agent (CA_AGENT_URL) for certificates and signatures
        connectSrc: ["'self'", ...(config.ca.agentUrl ? [new URL(config.ca.agentUrl).origin] : [])],
        mediaSrc: ["'self'", 'blob:'],
        // the WeChat QR page (qrconnect) is shown in a frame when WeChat sign-in is configured
        frameSrc: ["'self'", 'blob:', ...(config.wechat ? [new URL(config.wechat.openUrl).origin] : [])],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    // Served over plain HTTP on a LAN as well: no HSTS from the app (set it at the TLS terminator).
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (_req, reply, done) => {
    const res = reply.raw;
    for (const [name, value] of securityHeaders) res.setHeader(name, value);
    res.removeHeader('x-powered-by');
    done();
  });

  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      // the server's own trouble (a file store that is full or away): the client hears the message, the log the cause
      if (err.httpStatus >= 500) req.log.error({ err, cause: err.cause }, 'service unavailable');
      return reply.status(err.httpStatus).send(fail(err.code, err.message, err.data));
    }
    const status = (err as FastifyError).statusCode ?? 500;
    const code = (err as FastifyError).code ?? '';
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && err instanceof SyntaxError)) {
      return reply.status(400).send(fail(Code.BAD_REQUEST, Msg.MALFORMED_JSON));
    }
    if (status === 413) return reply.status(413).send(fail(Code.PAYLOAD_TOO_LARGE, Msg.PAYLOAD_TOO_LARGE));
    if (status === 429) return reply.status(429).send(fail(Code.TOO_MANY_REQUESTS, Msg.TOO_MANY_REQUESTS));
    if (status === 415) return reply.status(415).send(fail(415, '不支持的请求内容类型，请使用 application/json'));
    if (status >= 400 && status < 500) {
      return reply
        .status(status)
        .send(
          fail(status === 404 ? Code.NOT_FOUND : Code.BAD_REQUEST, status === 404 ? Msg.NOT_FOUND : Msg.BAD_REQUEST),
        );
    }
    if (isDatabaseUnavailable(err)) {
      req.log.error({ err: { message: err.message, code: (err as { code?: string }).code } }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send(fail(Code.SERVICE_UNAVAILABLE, Msg.DATABASE_UNAVAILABLE, { requestId: req.id }));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(fail(Code.INTERNAL, `${Msg.INTERNAL}（请求编号：${req.id}）`, { requestId: req.id }));
  });

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    if (url === '/ks' || url.startsWith('/ks/')) {
      return reply.status(404).send(fail(Code.NOT_FOUND, `${Msg.NOT_FOUND}：${req.method} ${url.slice(0, 200)}`));
    }
    // History-mode client routes: any GET of a path without a file extension gets index.html.
    if (webDist && (req.method === 'GET' || req.method === 'HEAD') && !path.extname(url)) {
      reply.header('cache-control', 'no-cache');
      return reply.type('text/html; charset=utf-8').send(indexHtml);
    }
    return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
  });

  const auth = createAuthService({ db, config, now: deps.now });
  // the shell's one live channel: its streams end before the server waits for open connections
  const live = createLiveHub({ db, listen: deps.listen, now: deps.now, ...deps.live });
  await live.start();
  app.decorate('live', live);
  const sms = createSmsService({ db, config, now: deps.now });
  app.decorate('sms', sms);
  app.addHook('preClose', (done) => {
    live.close();
    done();
  });
  const storage = deps.storage ?? createStorage(config);
  let storageHealth: { at: number; h: Promise<StorageHealth> } | null = null;
  /** the store's state, asked at most every 10 s */
  const storageState = () => {
    if (!storageHealth || Date.now() - storageHealth.at > 10_000) {
      storageHealth = { at: Date.now(), h: storage.health() };
    }
    return storageHealth.h;
  };

  // electronic guarantee letters: the configured issuer (none: applying is refused), a background pass over letters
  // waiting on it, stopped with the server
  const guarantees = {
    db,
    storage,
    issuer: config.guarantee.issuer ? createGuaranteeIssuer(config.guarantee.issuer) : null,
    now: deps.now ?? (() => new Date()),
    log: app.log,
  };
  const stopGuaranteePoll = startGuaranteePoller(guarantees, config.guarantee.pollSeconds);
  // cost-file detections: this process takes queued ones (and those of a process that died) and runs them on a worker
  const costRunner = createCostRunner({ db, storage });
  costRunner.start();
  app.decorate('costRunner', costRunner);
  app.addHook('onClose', async () => {
    await costRunner.stop();
  });
  // @app:dex — the outbox of pushes to the upstream platform: this process sends due pushes (and those of a dead one)
  const dexRunner = createDexRunner({
    db,
    upstream: config.dex.upstream,
    maxAttempts: config.dex.maxAttempts,
    backoffMs: config.dex.backoffMs,
    pollMs: config.dex.pollMs,
  });
  dexRunner.start();
  app.decorate('dexRunner', dexRunner);
  // … and runs the registration syncs administrators start (and those of a process that died)
  const dexSyncRunner = createDexSyncRunner({
    db,
    upstream: config.dex.upstream,
    pageSize: config.dex.syncPageSize,
    pollMs: config.dex.pollMs,
    tz: config.timeZone,
  });
  dexSyncRunner.start();
  app.decorate('dexSyncRunner', dexSyncRunner);
  app.addHook('onClose', async () => {
    await dexRunner.stop();
    await dexSyncRunner.stop();
  });
  app.addHook('onClose', (_app, done) => {
    stopGuaranteePoll();
    done();
  });

  // The API: rate-limited, and every route needs a live session unless its contract says otherwise.
  await app.register(async (ks) => {
    await ks.register(rateLimit, {
      max: config.rateLimitPerMinute,
      timeWindow: '1 minute',
      errorResponseBuilder: () => new AppError(429, Code.TOO_MANY_REQUESTS, Msg.TOO_MANY_REQUESTS),
    });
    // Validators for what a browser may revalidate: GET answers (portal lists, configuration) carry an ETag and
    // become 304 when it matches; a POST's answer is never reused by a cache, so it is not hashed.
    ks.addHook('onSend', (req, reply, payload, done) => {
      if (
        (req.method !== 'GET' && req.method !== 'HEAD') ||
        reply.statusCode < 200 ||
        reply.statusCode >= 300 ||
        !(typeof payload === 'string' || Buffer.isBuffer(payload))
      ) {
        done(null, payload);
        return;
      }
      let tag = reply.getHeader('etag');
      if (!tag) {
        tag = `"${createHash('sha1').update(payload).digest('base64')}"`;
        reply.header('etag', tag);
      }
      const match = req.headers['if-none-match'];
      if (match && (match === tag || match === `W/${tag}`)) {
        reply.code(304);
        done(null, '');
        return;
      }
      done(null, payload);
    });
    ks.addHook('onRequest', async (req) => {
      if (req.routeOptions.config?.public) {
        // A public route still knows its caller when a live token is sent (logout, optional personalisation).
        return;
      }
      const header = req.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
      req.auth = await auth.authenticate(token || null, req.ip);
      // an account whose password an administrator reset may only change it (and sign out, and read who it is)
      if (req.auth.user.mustChangePassword && !MUST_CHANGE_ALLOWED.has(`${req.method} ${req.routeOptions.url}`)) {
        throw new AppError(403, Code.PASSWORD_CHANGE_REQUIRED, Msg.PASSWORD_CHANGE_REQUIRED);
      }
    });
    authRoutes(ks, auth, config.loginRateLimitPerMinute);
    liveRoutes(ks, db, live);
    portalRoutes(ks, db, config, version, deps.now ?? (() => new Date()));
    shellRoutes(ks, db);
    // @app:accounts
    accountsRoutes(ks, db);
    // @app:system-notices — a shell service: outside the 418 gate, like the menus
    systemNoticesRoutes(ks, db, deps.now ?? (() => new Date()));
    // @app:help
    helpRoutes(ks, db, deps.now ?? (() => new Date()));
    // @app:library — 资料库: product-centre downloads and standard files (issue 19; a shell service, outside the 418 gate)
    libraryRoutes(ks, db);
    messagesRoutes(ks, db, deps.now ?? (() => new Date()));
    // @app:ca — CA certificate sign-in (public) and /lock
    caRoutes(
      ks,
      createCaService({ db, auth, config: config.ca, now: deps.now ?? (() => new Date()) }),
      config.loginRateLimitPerMinute,
    );
    // @app:sms
    smsRoutes(ks, { sms, auth });
    // @app:register — self-registration, activation, real-name registration (public; outside the 418 gate)
    registerRoutes(ks, {
      db,
      auth,
      sms,
      now: deps.now ?? (() => new Date()),
      perMinute: config.loginRateLimitPerMinute,
      files: {
        db,
        storage,
        spoolDir: path.join(config.dataDir, 'files', '.tmp'),
        uploadMaxBytes: config.files.uploadMaxBytes,
        chunkedMaxBytes: config.files.chunkedMaxBytes,
        taskTtlMs: config.files.taskTtlMs,
        now: deps.now ?? (() => new Date()),
      },
    });
    registerRegistrationHooks(deps.now ?? (() => new Date()));
    // @app:account-centre
    await accountCentreRoutes(ks, {
      db,
      auth,
      sms,
      storage,
      passwordMaxAgeDays: config.passwordMaxAgeDays,
      loginPerMinute: config.loginRateLimitPerMinute,
      now: deps.now ?? (() => new Date()),
    });
    // Business handling (engine records, uploads and attachments; later business modules go here too): an enterprise
    // user whose company information is incomplete gets 418 (spec §2) until it is completed.
    await ks.register(async (biz) => {
      biz.addHook('onRequest', companyInfoGate(db));
      engineRoutes(biz, db, deps.now ?? (() => new Date()), config.timeZone);
      // @app:files
      filesRoutes(biz, {
        db,
        storage,
        auth,
        spoolDir: path.join(config.dataDir, 'files', '.tmp'),
        uploadMaxBytes: config.files.uploadMaxBytes,
        chunkedMaxBytes: config.files.chunkedMaxBytes,
        taskTtlMs: config.files.taskTtlMs,
        now: deps.now ?? (() => new Date()),
      });
      // @app:credit
      creditRoutes(biz, db, deps.now ?? (() => new Date()));
      // @app:rfc
      changeRoutes(biz, db, deps.now ?? (() => new Date()));
      registerChangeHooks(deps.now ?? (() => new Date()));
      // @app:tender — five-in-one projects and sections, timeline settings (issue 16)
      registerNoticeHooks(deps.now ?? (() => new Date()), config.timeZone);
      tenderRoutes(biz, db, deps.now ?? (() => new Date()), config.timeZone);
      // @app:tender-files — the 招标文件 tab: documents, recorded downloads, clarifications (issue 16)
      tenderFilesRoutes(biz, { db, storage, now: deps.now ?? (() => new Date()), tz: config.timeZone });
      // @app:venue — venue booking (issue 16); its public availability below, outside the 418 scope
      venueRoutes(biz, db, deps.now ?? (() => new Date()));
      // @app:experts — expert extraction (issue 16)
      expertsRoutes(biz, { db, auth, now: deps.now ?? (() => new Date()) });
      // @app:deposits — bid deposits and electronic guarantee letters (issue 16)
      depositsRoutes(biz, guarantees);
      registerGuaranteeHooks(deps.now ?? (() => new Date()));
      // @app:bids
      bidsRoutes(biz, { db, storage, now: deps.now ?? (() => new Date()), taskTtlMs: config.files.taskTtlMs });
      // @app:opening — the remote opening hall (issue 17)
      openingRoutes(biz, { db, storage, now: deps.now ?? (() => new Date()), tz: config.timeZone });
      // @app:evaluation — bid evaluation (issue 17)
      evaluationRoutes(biz, { db, storage, now: deps.now ?? (() => new Date()), tz: config.timeZone });
      // @app:monitor — 监督台, the supervision console over openings and evaluations (issue 17)
      monitorRoutes(biz, { db, storage, now: deps.now ?? (() => new Date()), tz: config.timeZone });
      // @app:cost — cost files: parsing, upload, detection (issue 18)
      await costRoutes(biz, {
        db,
        storage,
        now: deps.now ?? (() => new Date()),
        kick: () => void costRunner.kick(),
        spoolDir: path.join(config.dataDir, 'files', '.tmp'),
      });
      // @app:dex — 数据交换: push records and re-sends, registration syncs and their review (issue 19)
      dexRoutes(
        biz,
        {
          db,
          configured: config.dex.upstream !== null,
          maxAttempts: config.dex.maxAttempts,
          kick: () => void dexRunner.kick(),
        },
        {
          db,
          configured: config.dex.upstream !== null,
          kick: () => void dexSyncRunner.kick(),
          tz: config.timeZone,
        },
      );
      // @app:stats — statistics and the to-do statistics calls (issue 19)
      statsRoutes(biz, { db, now: deps.now ?? (() => new Date()), tz: config.timeZone });
    });
    // @app:ledger — the opening-and-evaluation log's public verification and daily anchors (issue 17)
    ledgerRoutes(ks, { db, now: deps.now ?? (() => new Date()), tz: config.timeZone });
    // @app:feedback — feedback surveys and the weather widget (shell services: outside the 418 scope)
    feedbackRoutes(ks, db, deps.now ?? (() => new Date()), config.timeZone);
    weatherRoutes(ks, config.weather, deps.now ?? (() => new Date()));
    // @app:wechat — WeChat QR sign-in and binding, login mode (issue 15)
    wechatRoutes(ks, { db, auth, config, now: deps.now ?? (() => new Date()) });
    changePublicRoutes(ks);
    creditPublicRoutes(ks, db, deps.now ?? (() => new Date()));
    venuePublicRoutes(ks, db);
    // @app:performance — 企业业绩 (issue 19): declared and reviewed in the engine; public reads
    registerPerformanceHooks();
    performanceRoutes(ks, db);
    // @app:publicdata — 公共数据 (issue 19): published transactions, control prices, people, indicators, the report
    publicDataRoutes(ks, { db, now: deps.now ?? (() => new Date()), tz: config.timeZone });
    // @app:material — material information prices (issue 19): public reads, administrators' import and publication
    await materialRoutes(ks, {
      db,
      now: deps.now ?? (() => new Date()),
      spoolDir: path.join(config.dataDir, 'files', '.tmp'),
    });
    // Readiness (a reverse proxy or orchestrator sends traffic only to a ready process): the database answers a query
    // within 2 s, the file store is reachable, and the listening connection (events between processes) is up. 503
    // with what is not, so a process whose database went away is taken out of rotation until it is back.
    ks.get('/ks/health/ready', { config: { public: true } }, async (_req, reply) => {
      const database = await Promise.race([
        db.execute(sql`select 1`).then(
          () => 'up' as const,
          () => 'down' as const,
        ),
        new Promise<'down'>((r) => setTimeout(() => r('down'), 2_000).unref()),
      ]);
      const files = await storageState();
      const listener = deps.listenerState?.() ?? 'idle';
      const checks = { database, storage: files.ok ? 'up' : 'down', listener };
      const ready = database === 'up' && files.ok && listener !== 'down';
      if (ready) return ok({ status: 'ready', ...checks });
      const why = [
        database === 'down' ? Msg.DATABASE_UNAVAILABLE : null,
        files.ok ? null : files.message,
        listener === 'down' ? '进程间事件通道已断开，正在重连' : null,
      ].filter(Boolean);
      return reply
        .status(503)
        .send(fail(Code.SERVICE_UNAVAILABLE, `服务未就绪：${why.join('；')}`, { status: 'not-ready', ...checks }));
    });
    const doc = buildOpenApi(version);
    ks.get('/ks/docs', { config: { public: true } }, async () => doc);
    // Liveness for anyone (load balancers, the start scripts); what runs where (version, storage, caches) for
    // administrators.
    ks.get('/ks/health', { config: { public: true } }, async (req) => {
      const files = await storageState();
      const header = req.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
      let admin = false;
      if (token) {
        try {
          admin = (await auth.authenticate(token, req.ip)).user.loginRoleType === 'M';
        } catch {
          admin = false;
        }
      }
      const status = files.ok ? 'up' : 'degraded';
      if (!admin) return ok({ status }, files.ok ? undefined : '部分服务暂不可用');
      // the API answers either way; a store that cannot be reached is named plainly. The in-process caches: how full
      return ok(
        { status, version, storage: files, caches: cacheStats(), live: { streams: live.size() } },
        files.ok ? undefined : files.message,
      );
    });
  });

  if (webDist) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      wildcard: true,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        } else {
          res.header('cache-control', 'no-cache');
        }
      },
    });
    app.get('/', (_req, reply) => {
      reply.header('cache-control', 'no-cache');
      return reply.type('text/html; charset=utf-8').send(indexHtml);
    });
    app.get('/index.html', (_req, reply) => {
      reply.header('cache-control', 'no-cache');
      return reply.type('text/html; charset=utf-8').send(indexHtml);
    });
  }

  return app;
}
