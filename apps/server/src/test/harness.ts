import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import { type Database, openPglite, openPostgres } from '../db/client';
import { AUTH_CHANNEL, forgetSessions } from '../modules/auth/auth.repo';
import { clearCaches } from '../platform/cache';
import { createStorage } from '../platform/storage';
import { seedDemo } from '../seed/demo';

export const usingPostgres = process.env.TEST_DB === 'pg';

/**
 * The required details of an enterprise (ENTERPRISE_REQUIRED_FIELDS): a test enterprise without them is incomplete,
 * and its users get 418 from business calls until it is completed (spec §2; modules/accounts/company-info.gate.ts).
 */
export const ENTERPRISE_DETAILS = {
  legalPerson: '测试法人',
  region: '太原市',
  address: '太原市小店区测试路 1 号',
  registeredCapital: '10000000',
  establishedAt: '2010-01-01',
} as const;

/**
 * A fresh, migrated database of its own — with the demo data when `seeded` — loaded from the run's PGlite dump or
 * copied from the run's PostgreSQL template (see global-setup.ts).
 */
export async function createTestDatabase(opts: { seeded?: boolean } = {}): Promise<Database & { url?: string }> {
  if (!usingPostgres) {
    const dump = readFileSync(inject(opts.seeded ? 'pgliteSeededDump' : 'pgliteDump'));
    return openPglite({ loadDataDir: new Blob([dump]) });
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=pg needs TEST_DATABASE_URL');
  const template = inject(opts.seeded ? 'pgSeededTemplate' : 'pgTemplate');
  const name = `ks_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  // The forced drop below may terminate a connection the pool is still closing; that is expected here.
  const database = await openPostgres(u.toString(), 5, () => undefined);
  return {
    ...database,
    /** where another process finds this database */
    url: u.toString(),
    async close() {
      await database.close();
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: Database & { url?: string };
  config: Config;
  clock: { now: Date; advance(ms: number): void };
  close(): Promise<void>;
}

export async function createTestApp(
  opts: {
    env?: Record<string, string>;
    seed?: boolean;
    database?: Database;
    live?: { heartbeatMs?: number; sessionCheckMs?: number };
  } = {},
): Promise<TestApp> {
  const seed = opts.seed !== false;
  // test files share a worker's modules (vitest isolate: false): what one file's database put in the caches is not
  // another's
  clearCaches();
  const database = opts.database ?? (await createTestDatabase({ seeded: seed }));
  // as main.ts does: kept sessions are dropped when another process announces a change
  await database.listen(AUTH_CHANNEL, forgetSessions);
  const config = loadConfig({
    NODE_ENV: 'test',
    WEB_DIST: '',
    RATE_LIMIT_PER_MINUTE: '100000',
    LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
    ...opts.env,
  });
  // a database passed in is seeded here (seedDemo does nothing on a database that already has data), its evidence
  // files in the app's store
  if (seed && opts.database) await seedDemo(database.db, { storage: createStorage(config) });
  const clock = {
    now: new Date(),
    advance(ms: number) {
      this.now = new Date(this.now.getTime() + ms);
    },
  };
  const app = await buildApp({
    config,
    db: database.db,
    now: () => clock.now,
    listen: database.listen,
    listenerState: database.listenerState,
    live: opts.live,
  });
  await app.ready();
  return {
    app,
    database,
    config,
    clock,
    async close() {
      await app.close();
      if (!opts.database) await database.close();
    },
  };
}

export function json<T = { code: number; data: unknown; message: string }>(res: LightMyRequestResponse): T {
  return JSON.parse(res.body) as T;
}

export async function publicKeyOf(app: FastifyInstance): Promise<string> {
  return (await keyAndNonce(app)).publicKey;
}

/** The login public key and a fresh single-use nonce. */
export async function keyAndNonce(app: FastifyInstance): Promise<{ publicKey: string; nonce: string }> {
  const res = await app.inject({ method: 'GET', url: '/ks/common/public-key' });
  return json<{ data: { publicKey: string; nonce: string } }>(res).data;
}

/** RSA-OAEP SHA-256, as the browser does; `label` is the login nonce (none for other encrypted fields). */
export function encrypt(publicKey: string, text: string, label?: string): string {
  return publicEncrypt(
    {
      key: publicKey,
      padding: constants.RSA_PKCS1_OAEP_PADDING,
      oaepHash: 'sha256',
      ...(label ? { oaepLabel: Buffer.from(label, 'utf8') } : {}),
    },
    Buffer.from(text, 'utf8'),
  ).toString('base64');
}

export async function loginRaw(
  app: FastifyInstance,
  account: string,
  password: string,
  role: string,
  extra: { uuid?: string; code?: string; ip?: string } = {},
) {
  const { publicKey: key, nonce } = await keyAndNonce(app);
  return app.inject({
    method: 'POST',
    url: '/ks/common/login',
    remoteAddress: extra.ip ?? '127.0.0.1',
    payload: loginBody(key, nonce, account, password, role, extra),
  });
}

/** A sign-in body as the browser builds it: the three fields encrypted with the nonce as OAEP label. */
export function loginBody(
  key: string,
  nonce: string,
  account: string,
  password: string,
  role: string,
  extra: { uuid?: string; code?: string } = {},
) {
  return {
    logValue: encrypt(key, account, nonce),
    passWord: encrypt(key, password, nonce),
    loginRoleType: encrypt(key, role, nonce),
    nonce,
    ...(extra.uuid ? { uuid: extra.uuid, code: extra.code } : {}),
  };
}

export async function loginToken(app: FastifyInstance, account: string, role: string, password = 'Demo@2026') {
  const res = await loginRaw(app, account, password, role);
  if (res.statusCode !== 200) throw new Error(`login ${account} failed: ${res.body}`);
  return json<{ data: { token: string } }>(res).data.token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The answer envelope as tests read it (the data field by field). */
// biome-ignore lint/suspicious/noExplicitAny: tests check answers field by field
export type Body = { code: number; data: any; message: string };

/** A test's client of the API, as the holder of `token` (none: null); `t` is asked at each call (built in beforeAll). */
export function client(t: () => TestApp) {
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    token: string | null,
    payload?: unknown,
  ): Promise<{ res: LightMyRequestResponse; body: Body; status: number }> => {
    const res = await t().app.inject({
      method,
      url,
      headers: token ? bearer(token) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { res, body: json<Body>(res), status: res.statusCode };
  };
  return {
    call,
    get: (url: string, token: string | null) => call('GET', url, token),
    post: (url: string, token: string | null, payload: unknown) => call('POST', url, token, payload),
    put: (url: string, token: string | null, payload: unknown) => call('PUT', url, token, payload),
    del: (url: string, token: string | null) => call('DELETE', url, token),
  };
}
