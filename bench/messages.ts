/**
 * Message-centre counts at scale (issue 14), on PostgreSQL: TODOS to-dos (100,000 by default), two per record, over the
 * demo's review nodes — a tenth of the records open; a third of the records for the 审核员 role and the
 * administrators' role, a third for the demo 审核员 himself and another user, a third for two of a thousand other
 * users — then, at CONCURRENCY connections (4), the bell's counts (`GET /ks/message/v1/counts`) and the
 * system selector's to-do counts (`GET /ks/notification/v1/audit/system-list`) as the 审核员 (thousands of open
 * to-dos through his role and his own) and as the administrator, beside the counting statement as raw SQL.
 * Run: npm run bench:messages   (BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres by default)
 * KEEP_DB=1 keeps the loaded database, BENCH_DB=<name> reuses it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgres } from '../apps/server/src/db/client';
import { createLocalStorage } from '../apps/server/src/platform/storage/local';
import { seedDemo } from '../apps/server/src/seed/demo';
import { machine, load as measure, root, signIn, startServer } from './lib';

const TODOS = Number(process.env.TODOS ?? 100_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const SECONDS = Number(process.env.SECONDS ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 2);
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const loadAtStart = os.loadavg().map((x) => +x.toFixed(2));

const reuse = process.env.BENCH_DB;
const keep = process.env.KEEP_DB === '1' || Boolean(reuse);
const name = reuse ?? `ks_bench_messages_${Date.now()}`;
if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`BENCH_DB must be a plain database name: ${name}`);
if (!reuse) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
}
const u = new URL(adminUrl);
u.pathname = `/${name}`;
const databaseUrl = u.toString();

const client = new pg.Client({ connectionString: databaseUrl });
if (!reuse) {
  const database = await openPostgres(databaseUrl, 4);
  await database.migrate();
  await seedDemo(database.db, { storage: createLocalStorage(mkdtempSync(path.join(os.tmpdir(), 'ks-bench-seed-'))) });
  await database.close();
  await client.connect();
  const t0 = performance.now();
  // two to-dos per record (a level's role and a user), records of the demo's reviewed nodes; one in ten open
  await client.query(
    `insert into todos (node_id, system_id, record_id, level, assignee_type, assignee_id, business_name,
        submitter_name, sb_time, done_at)
     select n.id, n.system_id, md5('r' || (g / 2))::uuid, 1,
       case when (g / 2) % 3 = 0 then 'role' else 'user' end,
       case when (g / 2) % 3 = 0 then (case when g % 2 = 0 then 'auditor' else 'admin' end)
         when (g / 2) % 3 = 1 and g % 2 = 0 then (select id::text from users where account = 'auditor')
         else md5('u' || (g % 1000))::uuid::text end,
       '基准事项 ' || g, '基准企业', now() - (g || ' minutes')::interval,
       case when (g / 2) % 10 = 0 then null else now() end
     from generate_series(1, $1::int) g
     cross join lateral (select m.id, m.system_id from menu_nodes m
       where m.id in (select node_id from audit_levels) order by m.gn_coding offset (g / 2) % 7 limit 1) n`,
    [TODOS],
  );
  await client.query('vacuum (analyze) todos');
  console.info(`inserted ${TODOS} to-dos in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
} else await client.connect();

const counted = await client.query(
  `select count(*)::int as all, count(*) filter (where done_at is null)::int as open from todos`,
);
console.info(`to-dos: ${JSON.stringify(counted.rows[0])}`);
const auditorId = (await client.query(`select id from users where account = 'auditor'`)).rows[0].id as string;
const rawCount = `select system_id, node_id, count(distinct record_id)::int as n from todos
  where done_at is null and ((assignee_type = 'user' and assignee_id = $1) or (assignee_type = 'role' and assignee_id = any($2)))
  group by system_id, node_id`;
const plan = await client.query(`explain (analyze, buffers) ${rawCount}`, [auditorId, ['user', 'auditor']]);
console.info(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));

const server = await startServer({
  port: 18510,
  env: { DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '1000000', SINGLE_SESSION: 'false' },
});
process.on('exit', () => server.proc.kill('SIGKILL'));
const tokens = {
  auditor: await signIn(server.url, 'auditor', 'Demo@2026', 'U'),
  admin: await signIn(server.url, 'admin', 'Demo@2026', 'M'),
};

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const target = new URL(server.url);
const get = (p: string, token: string) =>
  new Promise<string>((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: p,
        method: 'GET',
        headers: { authorization: `Bearer ${token}` },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
const load = (label: string, once: (i: number) => Promise<void>) =>
  measure(label, once, { concurrency: CONCURRENCY, seconds: SECONDS, warmup: WARMUP });
const expectOk = (body: string, check: (data: any) => boolean) => {
  const j = JSON.parse(body) as { code: number; data: unknown };
  if (j.code !== 200 || !check(j.data)) throw new Error(`unexpected answer ${body.slice(0, 200)}`);
  return j.data;
};

const sample = expectOk(await get('/ks/message/v1/counts', tokens.auditor), (d) => d.todos > 0) as { todos: number };
console.info(`the 审核员's open to-dos: ${sample.todos}`);
const pool = new pg.Pool({ connectionString: databaseUrl, max: CONCURRENCY });
const results = [
  await load('API: GET /ks/message/v1/counts (审核员)', async () => {
    expectOk(await get('/ks/message/v1/counts', tokens.auditor), (d) => d.todos === sample.todos);
  }),
  await load('API: GET /ks/notification/v1/audit/system-list (审核员)', async () => {
    expectOk(await get('/ks/notification/v1/audit/system-list', tokens.auditor), (d) => d.length > 0);
  }),
  await load('API: GET /ks/notification/v1/audit/system-list (管理员)', async () => {
    expectOk(await get('/ks/notification/v1/audit/system-list', tokens.admin), (d) => d.length > 0);
  }),
  await load('raw SQL through pg: the counting statement (审核员)', async () => {
    await pool.query({ name: 'c', text: rawCount, values: [auditorId, ['user', 'auditor']] });
  }),
];
await pool.end();
agent.destroy();
console.table(results);
const out = {
  date: new Date().toISOString(),
  machine: machine(),
  loadAtStart,
  todos: counted.rows[0],
  auditorOpenTodos: sample.todos,
  concurrency: CONCURRENCY,
  seconds: SECONDS,
  results,
};
console.info(JSON.stringify(out, null, 2));
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/messages.json'), `${JSON.stringify(out, null, 2)}\n`);
await client.end();
await server.stop();
if (keep) console.info(`database ${name} kept (BENCH_DB=${name} reuses it)`);
else {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
process.exit(0);
