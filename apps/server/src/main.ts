import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setAppTimeZone } from '@ks/contracts';
import { appVersion, buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { type Database, openDatabase } from './db/client';
import { AUTH_CHANNEL, forgetSessions } from './modules/auth/auth.repo';
import { syncEngineIndexes } from './modules/engine/schema.service';
import { ensureRegistrationNode } from './modules/register/node';
import { setPasswordHashThreads } from './platform/password';
import { installProcessGuards } from './platform/process-guards';
import { createStorage } from './platform/storage';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from './seed/demo';

const here = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_WEB_DIST = path.resolve(here, '../../web/dist');

async function main() {
  // a promise that rejects with nobody waiting is logged, not the end of the process
  installProcessGuards();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`\n${e.message}\nFix the environment variables above and start again (see README, 配置).\n`);
      process.exit(1);
    }
    throw e;
  }
  if (config.webDist === null) config = { ...config, webDist: DEFAULT_WEB_DIST };
  // every date rule of this process (the seed's too) counts days in the platform's zone
  setAppTimeZone(config.timeZone);
  setPasswordHashThreads(config.passwordHashThreads);
  const started = Date.now();

  let database: Database;
  try {
    database = await openDatabase(config);
  } catch (e) {
    const where = config.databaseUrl ? 'PostgreSQL at DATABASE_URL' : `the embedded database under ${config.dataDir}`;
    console.error(`\nCannot open ${where}: ${(e as Error).message}\n`);
    process.exit(1);
  }
  await database.migrate();
  // one file store for the process: the demo seed's evidence files and the app's uploads
  const storage = createStorage(config);
  if (config.seedDemo && (await seedDemo(database.db, { storage }))) {
    const rows = DEMO_ACCOUNTS.map((a) => `    ${a.account.padEnd(8)} ${a.loginRoleType}  ${a.note}`).join('\n');
    console.info(`\n  Demo data seeded. Demo accounts (password ${DEMO_PASSWORD}):\n${rows}\n`);
  }
  // the review of enterprise self-registrations (issue 15): its node and applicant account, when missing
  await ensureRegistrationNode(database.db);
  // engine node tables made by an earlier version get today's indexes (a no-op when they have them)
  const indexed = await syncEngineIndexes(database.db);
  if (indexed.length) console.info(`  Engine tables: ${indexed.length} index changes applied.`);

  // sessions kept for a moment are dropped when another process signs someone out or changes an account
  await database.listen(AUTH_CHANNEL, forgetSessions);

  const app = await buildApp({
    config,
    db: database.db,
    storage,
    listen: database.listen,
    listenerState: database.listenerState,
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.passWord'],
    },
  });

  installProcessGuards(app.log);

  /**
   * Stopping (SIGTERM / SIGINT): the listening socket closes at once (new connections are refused, a request that
   * arrives on a kept-alive connection gets 503), the live streams end, in-flight requests finish, the background
   * runners stop, then the database closes and the process exits 0. Past SHUTDOWN_GRACE_MS it logs and exits 1.
   */
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const graceMs = config.shutdownGraceMs;
    app.log.info({ signal, graceMs }, 'shutting down');
    // kept on purpose (not unref'd): a close that hangs with nothing else left to run still ends, with 1
    const force = setTimeout(() => {
      app.log.error({ signal, graceMs }, 'shutdown grace time passed with requests still open: exiting with 1');
      process.exit(1);
    }, graceMs);
    // A connection whose request finished after the close began stays open as keep-alive (Fastify's 72 s): Node
    // closes idle connections once, when the close starts. Close each as soon as it falls idle, so the process does
    // not wait for clients that have their answers.
    const reap = setInterval(() => app.server.closeIdleConnections(), 100);
    let code = 0;
    try {
      await app.close();
      await database.close();
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      code = 1;
    }
    clearInterval(reap);
    clearTimeout(force);
    app.log.info({ signal, code }, 'stopped');
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { version: appVersion(config.webDist || null), driver: database.driver, startupMs: Date.now() - started },
    'ready',
  );
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  console.info(`\n  公共资源交易与信用管理平台 is ready: http://${shownHost}:${config.port}/\n`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
