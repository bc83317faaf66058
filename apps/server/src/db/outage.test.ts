import net from 'node:net';
import { Code, Msg } from '@ks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, createTestDatabase, loginToken, type TestApp, usingPostgres } from '../test/harness';
import { type Database, openPostgres } from './client';
import { isDatabaseUnavailable } from './sql';

/**
 * A TCP relay between the server and PostgreSQL: `down()` cuts every connection and refuses new ones — what the
 * server sees when PostgreSQL is stopped or restarted — and `up()` listens again on the same port.
 */
function relay(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const up = () =>
    new Promise<number>((resolve, reject) => {
      const s = net.createServer((inbound) => {
        const outbound = net.connect(target.port, target.host);
        for (const sock of [inbound, outbound]) {
          sockets.add(sock);
          sock.on('error', () => sock.destroy());
          sock.on('close', () => {
            sockets.delete(sock);
            inbound.destroy();
            outbound.destroy();
          });
        }
        inbound.pipe(outbound).pipe(inbound);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        server = s;
        port = (s.address() as net.AddressInfo).port;
        resolve(port);
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const sock of sockets) sock.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  return { up, down };
}

describe('isDatabaseUnavailable', () => {
  it('knows a lost or refused database from a fault of the request or the code', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    // Drizzle wraps the driver's error
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    expect(isDatabaseUnavailable(Object.assign(new Error('Failed query: select 1'), { cause: shutdown }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe.skipIf(!usingPostgres)('PostgreSQL going away under a running server', () => {
  let t: TestApp;
  let backing: Database & { url?: string };
  let database: Database;
  let pgLink: ReturnType<typeof relay>;
  const c = client(() => t);

  beforeAll(async () => {
    backing = await createTestDatabase({ seeded: true });
    const u = new URL(backing.url!);
    pgLink = relay({ host: u.hostname, port: Number(u.port || 5432) });
    const port = await pgLink.up();
    u.hostname = '127.0.0.1';
    u.port = String(port);
    database = await openPostgres(u.toString(), 5, () => undefined);
    t = await createTestApp({ database });
  });
  afterAll(async () => {
    await t?.close();
    await database?.close().catch(() => undefined);
    await pgLink?.down();
    await backing?.close();
  });

  it('answers 503 with a clear envelope while it is down, and recovers by itself when it is back', async () => {
    const admin = await loginToken(t.app, 'admin', 'M');
    const ready = await c.get('/ks/health/ready', null);
    expect(ready.status).toBe(200);
    expect(ready.body.data).toEqual({ status: 'ready', database: 'up', storage: 'up', listener: 'up' });
    expect((await c.get('/ks/portal/v1/notices', null)).status).toBe(200);

    await pgLink.down();
    // requests fail with the envelope (no stack, no hanging): the portal, a signed-in call, readiness
    const portal = await c.get('/ks/portal/v1/notices', null);
    expect(portal.status).toBe(503);
    expect(portal.body).toMatchObject({ code: Code.SERVICE_UNAVAILABLE, message: Msg.DATABASE_UNAVAILABLE });
    expect(JSON.stringify(portal.body)).not.toMatch(/ECONNREFUSED|at .*\.ts/);
    const signedIn = await c.post('/ks/authority/manager/system-list', admin, {});
    expect(signedIn.status).toBe(503);
    const notReady = await c.get('/ks/health/ready', null);
    expect(notReady.status).toBe(503);
    expect(notReady.body.message).toContain(Msg.DATABASE_UNAVAILABLE);
    expect(notReady.body.data).toMatchObject({ status: 'not-ready', database: 'down' });
    // liveness stays: the process is alive, only not ready
    expect((await c.get('/ks/health', null)).status).toBe(200);

    await pgLink.up();
    // no restart: the pool opens fresh connections, the listener reconnects (it retries every second)
    let back = 0;
    for (let i = 0; i < 100 && back !== 200; i++) {
      back = (await c.get('/ks/portal/v1/notices', null)).status;
      if (back !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(back).toBe(200);
    expect((await c.post('/ks/authority/manager/system-list', admin, {})).status).toBe(200);
    let state: unknown = null;
    for (let i = 0; i < 50; i++) {
      const r = await c.get('/ks/health/ready', null);
      state = r.body.data;
      if (r.status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(state).toEqual({ status: 'ready', database: 'up', storage: 'up', listener: 'up' });
  }, 90_000);
});
