/**
 * Issue 14: the live channel at 1,000 open streams. Every stream is a reviewer (holder of the demo 审核员 role)
 * signed in in a tab of their own; user1 submits a 保函申请, whose review level goes to that role: the submission's
 * transaction writes the to-dos and one live event, and every stream must hear 'todos'. Measured from the moment the
 * submit request is sent to the moment each client has parsed the event: p50/p95/p99 over all clients and rounds —
 * first with every stream on the process that takes the submission, then with every stream on a second server
 * process on the same PostgreSQL database (delivered through LISTEN/NOTIFY). Also the server's memory per idle stream
 * (RSS before and after opening them).
 *
 * Run: npm run bench:live   (BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres by default; STREAMS=1000,
 * ROUNDS=20, BENCH_PORT=18340 and the next one for the second process)
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { creditCodeCheckChar, LIVE_STREAM_PATH } from '@ks/contracts';
import { createParser } from 'eventsource-parser';
import pg from 'pg';
import { machine, pct, root, signIn, startServer } from './lib';

const STREAMS = Number(process.env.STREAMS ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 20);
const PORT = Number(process.env.BENCH_PORT ?? 18340);
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const GN = 'DZBH_BHSQ';

const rssKb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
};

interface Client {
  /** when this client heard the latest 'todos' */
  heard: number;
  ctl: AbortController;
}

async function openStreams(url: string, tokens: string[]): Promise<Client[]> {
  const clients: Client[] = [];
  await Promise.all(
    tokens.map(async (token) => {
      const c: Client = { heard: 0, ctl: new AbortController() };
      const res = await fetch(url + LIVE_STREAM_PATH, {
        headers: { authorization: `Bearer ${token}` },
        signal: c.ctl.signal,
      });
      if (res.status !== 200 || !res.body) throw new Error(`stream: HTTP ${res.status}`);
      const parser = createParser({
        onEvent: (e) => {
          if (e.event === 'todos') c.heard = performance.now();
        },
      });
      const reader = res.body.getReader();
      const dec = new TextDecoder();
      void (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            parser.feed(dec.decode(value, { stream: true }));
          }
        } catch {
          // closed by the bench
        }
      })();
      clients.push(c);
    }),
  );
  return clients;
}

const GUARANTEE = (i: number) => {
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  return {
    xmmc: `晋中市榆次区市政道路改造工程（压测 ${i}）`,
    bhlx: 'tb',
    bhje: 200000,
    sqdwdm: `91140100MA0K8G2J7${creditCodeCheckChar('91140100MA0K8G2J7')}`,
    yxq: `${day(10)},${day(200)}`,
    lxr: '张建国',
    lxdh: '13800138000',
  };
};

async function post(url: string, token: string, p: string, body: object) {
  const r = await fetch(url + p, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const j = (await r.json()) as { code: number; data: any; message: string };
  if (r.status !== 200) throw new Error(`${p}: ${r.status} ${j.message}`);
  return j.data;
}

/** user1 submits one 保函申请; resolves with the time the submit request was sent. */
async function submitOne(url: string, token: string, i: number) {
  const saved = await post(url, token, '/ks/engine/v1/records/save', { gnCoding: GN, values: GUARANTEE(i) });
  const t0 = performance.now();
  await post(url, token, '/ks/engine/v1/records/submit', { gnCoding: GN, id: saved.id, version: saved.version });
  return t0;
}

async function measure(label: string, submitUrl: string, userToken: string, clients: Client[]) {
  const times: number[] = [];
  let missed = 0;
  for (let r = -3; r < ROUNDS; r++) {
    for (const c of clients) c.heard = 0;
    const t0 = await submitOne(submitUrl, userToken, r + 1000);
    const deadline = performance.now() + 5000;
    while (clients.some((c) => c.heard === 0) && performance.now() < deadline)
      await new Promise((s) => setTimeout(s, 5));
    if (r < 0) continue; // warm-up rounds
    for (const c of clients) {
      if (c.heard === 0) missed++;
      else times.push(c.heard - t0);
    }
    await new Promise((s) => setTimeout(s, 300));
  }
  times.sort((a, b) => a - b);
  const out = {
    case: label,
    streams: clients.length,
    rounds: ROUNDS,
    deliveries: times.length,
    missed,
    p50: +pct(times, 50).toFixed(1),
    p95: +pct(times, 95).toFixed(1),
    p99: +pct(times, 99).toFixed(1),
    max: +times[times.length - 1]!.toFixed(1),
  };
  console.info(JSON.stringify(out));
  return out;
}

async function main() {
  const dbName = `ks_bench_live_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const dbUrl = u.toString();
  const env = { DATABASE_URL: dbUrl, RATE_LIMIT_PER_MINUTE: '1000000', LOGIN_RATE_LIMIT_PER_MINUTE: '100000' };
  const a = await startServer({ port: PORT, env });
  let b: Awaited<ReturnType<typeof startServer>> | null = null;
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    // the reviewers: STREAMS accounts holding the demo reviewer role, each with a live session of its own
    await db.query(`delete from attachment_types where node_id = (select id from menu_nodes where gn_coding = $1)`, [
      GN,
    ]);
    const { rows: role } = await db.query(`select id from roles where code = 'auditor'`);
    const { rows: hash } = await db.query(`select password_hash from users where account = 'auditor'`);
    const tokens: string[] = [];
    for (let i = 0; i < STREAMS; i += 500) {
      const n = Math.min(500, STREAMS - i);
      const accounts = Array.from({ length: n }, (_, k) => `bench_r_${i + k}`);
      const { rows: ids } = await db.query(
        `insert into users (account, user_name, login_role_type, password_hash)
         select a, '压测审核员' || a, 'U', $2 from unnest($1::text[]) a returning id`,
        [accounts, hash[0].password_hash],
      );
      await db.query(`insert into user_roles (user_id, role_id) select unnest($1::uuid[]), $2`, [
        ids.map((r) => r.id),
        role[0].id,
      ]);
      const batch = ids.map(() => randomBytes(32).toString('base64url'));
      tokens.push(...batch);
      await db.query(
        `insert into sessions (token_hash, user_id, expires_at)
         select h, u, now() + interval '1 day' from unnest($1::text[], $2::uuid[]) as x(h, u)`,
        [batch.map((t) => createHash('sha256').update(t).digest('hex')), ids.map((r) => r.id)],
      );
    }
    const userToken = await signIn(a.url, 'user1', 'Demo@2026', 'U');

    const before = rssKb(a.proc.pid!);
    let clients = await openStreams(a.url, tokens);
    await new Promise((s) => setTimeout(s, 3000));
    const after = rssKb(a.proc.pid!);
    const memory = {
      streams: STREAMS,
      rssBeforeMb: +(before / 1024).toFixed(1),
      rssAfterMb: +(after / 1024).toFixed(1),
      perStreamKb: +((after - before) / STREAMS).toFixed(1),
    };
    console.info(JSON.stringify(memory));
    const one = await measure('one process', a.url, userToken, clients);
    for (const c of clients) c.ctl.abort();

    b = await startServer({ port: PORT + 1, env: { ...env, SEED_DEMO: 'false' } });
    await new Promise((s) => setTimeout(s, 1000));
    clients = await openStreams(b.url, tokens);
    await new Promise((s) => setTimeout(s, 2000));
    const two = await measure('two processes (submitted on A, streams on B)', a.url, userToken, clients);
    for (const c of clients) c.ctl.abort();

    const result = { at: new Date().toISOString(), machine: machine(), memory, one, two };
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    writeFileSync(path.join(root, 'bench/results/live.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await db.end();
    await b?.stop();
    await a.stop();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
