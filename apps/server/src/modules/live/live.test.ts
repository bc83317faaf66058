import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Code, LIVE_STREAM_PATH } from '@ks/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveEvents, users } from '../../db/schema';
import { publishEvent } from '../../platform/live';
import { bearer, createTestApp, loginToken, type TestApp, usingPostgres } from '../../test/harness';
import { openStream } from '../../test/processes';

const baseOf = (t: TestApp) => `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

describe('the live channel', () => {
  let t: TestApp;
  let base: string;
  let userToken: string;
  let adminToken: string;
  let userId: string;
  let adminId: string;
  let enterpriseId: string;
  beforeAll(async () => {
    t = await createTestApp({ live: { sessionCheckMs: 300 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = baseOf(t);
    userToken = await loginToken(t.app, 'user1', 'U');
    adminToken = await loginToken(t.app, 'admin', 'M');
    const [u] = await t.database.db.select().from(users).where(eq(users.account, 'user1'));
    const [a] = await t.database.db.select().from(users).where(eq(users.account, 'admin'));
    userId = u!.id;
    adminId = a!.id;
    enterpriseId = u!.enterpriseId!;
  });
  afterAll(() => t.close());

  it('refuses a stream without a live session (401 in the envelope)', async () => {
    for (const token of [null, 'not-a-token']) {
      const res = await fetch(base + LIVE_STREAM_PATH, { headers: token ? bearer(token) : {} });
      expect(res.status).toBe(401);
      const body = (await res.json()) as { code: number };
      expect([Code.UNAUTHORIZED, Code.TOKEN_INVALID]).toContain(body.code);
    }
  });

  it("delivers an event once its transaction commits, to its audience only, never a rolled-back one's", async () => {
    const user = await openStream(base, userToken);
    const admin = await openStream(base, adminToken);
    expect(user.status).toBe(200);
    await t.database.db
      .transaction(async (tx) => {
        await publishEvent(tx, { users: [userId] }, 'message', { id: 'rolled-back' });
        tx.rollback();
      })
      .catch(() => undefined);
    await t.database.db.transaction(async (tx) => {
      await publishEvent(tx, { users: [userId] }, 'message', { id: 'm1' });
    });
    await t.database.db.transaction(async (tx) => {
      await publishEvent(tx, { roles: ['admin'] }, 'chat-queue', { conversationId: 'c1' });
      await publishEvent(tx, { enterprises: [enterpriseId] }, 'notice', { id: 'n1' });
      await publishEvent(tx, { everyone: true }, 'notice', { id: 'n2' });
    });
    expect(JSON.parse((await user.next((e) => e.event === 'message')).data)).toEqual({ id: 'm1' });
    expect(JSON.parse((await user.next((e) => e.event === 'notice')).data)).toEqual({ id: 'n1' });
    expect(JSON.parse((await user.next((e) => e.event === 'notice')).data)).toEqual({ id: 'n2' });
    expect(JSON.parse((await admin.next((e) => e.event === 'chat-queue')).data)).toEqual({ conversationId: 'c1' });
    expect(JSON.parse((await admin.next((e) => e.event === 'notice')).data)).toEqual({ id: 'n2' });
    // nothing else reached either of them: not the rolled-back message, not the other's events
    expect(user.events.filter((e) => e.event).map((e) => e.event)).toEqual(['message', 'notice', 'notice']);
    expect(admin.events.filter((e) => e.event).map((e) => e.event)).toEqual(['chat-queue', 'notice']);
    expect(user.events.some((e) => e.data.includes('rolled-back'))).toBe(false);
    // an empty audience stores nothing
    const before = (await t.database.db.select().from(liveEvents)).length;
    await publishEvent(t.database.db, { users: [] }, 'message', {});
    expect((await t.database.db.select().from(liveEvents)).length).toBe(before);
    user.close();
    admin.close();
  });

  it('replays what a reconnecting tab missed after its Last-Event-ID, then asks it to re-read', async () => {
    const first = await openStream(base, userToken);
    await publishEvent(t.database.db, { users: [userId] }, 'todos', { gnCoding: 'A' });
    const seen = await first.next((e) => e.event === 'todos');
    first.close();
    await publishEvent(t.database.db, { users: [userId] }, 'todos', { gnCoding: 'B' });
    await publishEvent(t.database.db, { users: [adminId] }, 'todos', { gnCoding: 'not-yours' });
    await publishEvent(t.database.db, { users: [userId] }, 'message', { id: 'C' });
    const again = await openStream(base, userToken, seen.id);
    expect(JSON.parse((await again.next((e) => e.event === 'todos')).data)).toEqual({ gnCoding: 'B' });
    expect(JSON.parse((await again.next((e) => e.event === 'message')).data)).toEqual({ id: 'C' });
    await again.next((e) => e.event === 'resync');
    expect(again.events.some((e) => e.data.includes('not-yours'))).toBe(false);
    again.close();
  });

  it('ends the stream of a session that is signed out', async () => {
    const token = await loginToken(t.app, 'auditor', 'U');
    const s = await openStream(base, token);
    expect(s.status).toBe(200);
    const out = await t.app.inject({ method: 'GET', url: '/ks/common/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    await s.next((e) => e.event === 'closed', 5000);
    await s.ended;
    // and it cannot come back
    expect((await openStream(base, token)).status).toBe(401);
  });

  it.runIf(usingPostgres)(
    'crosses processes: an event committed by one server reaches the streams of another on the same database',
    async () => {
      const serverDir = path.resolve(import.meta.dirname, '../../..');
      const port = 18900 + Math.floor(Math.random() * 90);
      const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: serverDir,
        env: {
          ...process.env,
          DATABASE_URL: t.database.url!,
          PORT: String(port),
          WEB_DIST: '',
          LOG_LEVEL: 'warn',
          SEED_DEMO: 'false',
          RATE_LIMIT_PER_MINUTE: '100000',
          LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      proc.stdout.on('data', (d) => {
        out += d;
      });
      proc.stderr.on('data', (d) => {
        out += d;
      });
      const other = `http://127.0.0.1:${port}`;
      try {
        const deadline = Date.now() + 60_000;
        let up = false;
        while (!up && Date.now() < deadline) {
          up = await fetch(`${other}/ks/health`).then(
            (r) => r.ok,
            () => false,
          );
          if (!up) await new Promise((r) => setTimeout(r, 200));
        }
        expect(up, out).toBe(true);
        // a stream on the other process; the event is written here
        const there = await openStream(other, userToken);
        expect(there.status).toBe(200);
        await publishEvent(t.database.db, { users: [userId] }, 'message', { id: 'from-this-process' });
        expect(JSON.parse((await there.next((e) => e.event === 'message')).data)).toEqual({ id: 'from-this-process' });
        there.close();
        // a stream here, the session signed out on the other process: this process ends it too
        const here = await openStream(base, userToken);
        expect(here.status).toBe(200);
        const signOut = await fetch(`${other}/ks/common/logout`, { headers: bearer(userToken) });
        expect(signOut.status).toBe(200);
        await here.next((e) => e.event === 'closed', 8000);
        await here.ended;
        expect((await openStream(base, userToken)).status).toBe(401);
      } finally {
        proc.kill('SIGTERM');
      }
    },
    90_000,
  );
});
