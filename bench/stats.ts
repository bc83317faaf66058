/**
 * 统计分析 at scale (issue 19): 1,000,000 transactions (sections of 200,000 passed 项目进场登记 records of 2,000
 * enterprises, bid deadlines over 2026, one registration each) and 5,000,000 to-dos (one in a thousand still open, as
 * in a centre whose reviewers keep up) on PostgreSQL; every statistics call through the API at CONCURRENCY connections
 * (8), as an administrator and, where the scope differs, as an enterprise user.
 * Run: npm run bench:stats   (BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres by default; TXN=1000000,
 * TODOS=5000000; BENCH_DB=<name> reuses a database a run kept with KEEP_DB=1)
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

const TXN = Number(process.env.TXN ?? 1_000_000);
const TODOS = Number(process.env.TODOS ?? 5_000_000);
const ENTS = Number(process.env.ENTS ?? 2_000);
const PER_PROJECT = 5;
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const SECONDS = Number(process.env.SECONDS ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 2);
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const loadAtStart = os.loadavg().map((x) => +x.toFixed(2));

const reuse = process.env.BENCH_DB;
const name = reuse ?? `ks_bench_stats_${Date.now()}`;
if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`BENCH_DB must be a plain database name: ${name}`);
const u = new URL(adminUrl);
u.pathname = `/${name}`;
const databaseUrl = u.toString();

const REGIONS = [
  '太原市',
  '大同市',
  '朔州市',
  '忻州市',
  '阳泉市',
  '吕梁市',
  '晋中市',
  '长治市',
  '晋城市',
  '临汾市',
  '运城市',
];
const TYPES = ['房屋建筑工程', '市政公用工程', '公路工程', '水利水电工程', '园林绿化工程', '装饰装修工程'];
const arr = (xs: string[]) => `array[${xs.map((x) => `'${x}'`).join(',')}]`;

async function timed(c: pg.Client, label: string, text: string, params: unknown[] = []) {
  const t0 = performance.now();
  await c.query(text, params);
  console.info(`${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

const setup: Record<string, number> = {};
if (!reuse) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const database = await openPostgres(databaseUrl, 2);
  await database.migrate();
  await seedDemo(database.db, { storage: createLocalStorage(mkdtempSync(path.join(os.tmpdir(), 'ks-bench-seed-'))) });
  await database.close();

  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const t0 = performance.now();
  // the summaries' triggers step aside during the bulk load; stats_rebuild() makes them afterwards in one pass each
  await c.query(`select set_config('stats.bulk', 'on', false)`);
  // the engine's per-row data-version bump of todos (one row updated 5 million times) likewise; enabled again below
  await c.query('alter table todos disable trigger todos_node_data_version');
  const { rows: ids } = await c.query(
    `select (select id from users where account = 'admin') as admin, (select id from users where account = 'user1') as user1,
            (select enterprise_id from users where account = 'user1') as ent,
            (select id from menu_nodes where gn_coding = 'ZBTB_XMDJ') as node,
            (select system_id from menu_nodes where gn_coding = 'ZBTB_XMDJ') as system`,
  );
  const { admin: adminId, user1: user1Id, ent, node, system } = ids[0];
  await timed(
    c,
    `${ENTS} enterprises`,
    `insert into enterprises (name, credit_code, region, legal_person, address, registered_capital, established_at)
     select '基准建设工程有限公司' || g, 'B' || lpad(g::text, 17, '0'), (${arr(REGIONS)})[1 + g % ${REGIONS.length}],
            '法人', '地址', 10000000, '2010-01-01' from generate_series(1, ${ENTS}) g`,
  );
  const projects = Math.ceil(TXN / PER_PROJECT);
  await timed(
    c,
    `${projects} passed projects`,
    `with e as (select array_agg(id order by credit_code) || $2::uuid as ids from enterprises where credit_code like 'B%')
     insert into n_zbtb_xmdj (owner_id, enterprise_id, status, audit_level, round, version, created_at, updated_at,
       f_xmmc, f_xmbh, f_xmlx, f_xmszd)
     select $1::uuid, e.ids[1 + g % array_length(e.ids, 1)], 'passed', 0, 1, 1,
            timestamptz '2026-01-01 00:00+08' + make_interval(mins => (g * 37) % 525600),
            timestamptz '2026-01-01 00:00+08' + make_interval(mins => (g * 37) % 525600),
            '基准项目' || g, 'BENCH-' || g, (${arr(TYPES)})[1 + g % ${TYPES.length}],
            '山西省/' || (${arr(REGIONS)})[1 + (g / 7) % ${REGIONS.length}] || '/城区'
     from e, generate_series(1, ${projects}) g`,
    [adminId, ent],
  );
  await timed(
    c,
    `${TXN} sections`,
    `insert into tender_sections (project_id, code, name, estimate, deposit, doc_sale_start, doc_sale_end, bid_deadline, created_by)
     select p.id, 'BD-0' || k, '施工标段', 1000000 + (p.rn * 7919 + k * 104729) % 90000000, 0,
            date '2026-01-01', date '2026-01-07',
            timestamptz '2026-01-01 09:30+08' + make_interval(days => (((p.rn * ${PER_PROJECT} + k) * 13) % 365)::int),
            $1::uuid
     from (select id, row_number() over (order by id) as rn from n_zbtb_xmdj where f_xmbh like 'BENCH-%') p
     cross join generate_series(1, ${PER_PROJECT}) k
     limit ${TXN}`,
    [adminId],
  );
  await timed(
    c,
    `${TXN} registrations`,
    `with e as (select array_agg(id order by credit_code) || $2::uuid as ids from enterprises where credit_code like 'B%')
     insert into tender_registrations (section_id, enterprise_id, user_id, contact, phone, registered_at)
     select s.id, e.ids[1 + (s.rn * 31) % array_length(e.ids, 1)], $1::uuid, '联系人', '13800000000', s.bid_deadline - interval '20 days'
     from e, (select id, bid_deadline, row_number() over (order by id) as rn from tender_sections) s`,
    [user1Id, ent],
  );
  await timed(
    c,
    `${TODOS} to-dos`,
    `with p as (select array_agg(id) as ids from n_zbtb_xmdj where f_xmbh like 'BENCH-%')
     insert into todos (node_id, system_id, record_id, level, assignee_type, assignee_id, business_name, submitter_name, sb_time, done_at)
     select $1::uuid, $2::uuid, p.ids[1 + g % array_length(p.ids, 1)], 1, 'role', 'auditor', '项目进场登记：基准项目', '基准',
            timestamptz '2026-01-01 00:00+08' + make_interval(mins => (g * 7) % 480000),
            case when g % 1000 = 0 then null
                 else timestamptz '2026-01-01 00:00+08' + make_interval(mins => (g * 7) % 480000 + 300) end
     from p, generate_series(1, ${TODOS}) g`,
    [node, system],
  );
  await c.query('alter table todos enable trigger todos_node_data_version');
  await c.query(`select set_config('stats.bulk', 'off', false)`);
  await timed(c, 'stats_rebuild()', 'select stats_rebuild()');
  await timed(c, 'vacuum analyze', 'vacuum analyze');
  setup.loadSeconds = Math.round((performance.now() - t0) / 1000);
  const { rows: sizes } = await c.query(
    `select (select count(*) from stats_transactions)::int as txn, (select count(*) from stats_todos)::int as todos,
            (select count(*) from stats_txn_monthly)::int as txn_monthly, (select count(*) from stats_txn_ent_monthly)::int as txn_ent,
            (select count(*) from stats_todo_monthly)::int as todo_monthly, (select count(*) from stats_todo_ent_monthly)::int as todo_ent`,
  );
  Object.assign(setup, sizes[0]);
  console.info(JSON.stringify(setup));
  await c.end();
}
if (process.env.SETUP_ONLY === '1') {
  console.info(`database ${name} kept`);
  process.exit(0);
}

const server = await startServer({
  port: Number(process.env.BENCH_PORT ?? 18360),
  env: { DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '1000000', SINGLE_SESSION: 'false' },
});
process.on('exit', () => server.proc.kill('SIGKILL'));
const tokens = {
  admin: await signIn(server.url, 'admin', 'Demo@2026', 'M'),
  user1: await signIn(server.url, 'user1', 'Demo@2026', 'U'),
};

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const target = new URL(server.url);
const get = (p: string, token: string) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
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
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });

const Y = { startMonth: '2026-01', endMonth: '2026-12' };
const qs = (q: Record<string, string | number>) => new URLSearchParams(q as Record<string, string>).toString();
const cases: [string, string, keyof typeof tokens][] = [
  ['statistics/transactions (year)', `statistics/transactions?${qs(Y)}`, 'admin'],
  [
    'statistics/transactions (year, 运城市, 公路工程)',
    `statistics/transactions?${qs({ ...Y, region: '运城市', type: '公路工程' })}`,
    'admin',
  ],
  ['statistics/transactions (enterprise user)', `statistics/transactions?${qs(Y)}`, 'user1'],
  ['statistics/transaction-list (year, page 1)', `statistics/transaction-list?${qs(Y)}`, 'admin'],
  [
    'statistics/transaction-list (region, month)',
    `statistics/transaction-list?${qs({ ...Y, region: '运城市', month: '2026-06' })}`,
    'admin',
  ],
  ['statistics/complete-count', `statistics/complete-count?${qs(Y)}`, 'admin'],
  ['statistics/complete-count (enterprise user)', `statistics/complete-count?${qs(Y)}`, 'user1'],
  [
    'statistics/complete-list (passed, page 1)',
    `statistics/complete-list?${qs({ ...Y, gnCoding: 'ZBTB_XMDJ', status: 'passed' })}`,
    'admin',
  ],
  ['statistics/progress', `statistics/progress?${qs(Y)}`, 'admin'],
  ['statistics/progress-list', `statistics/progress-list?${qs(Y)}`, 'admin'],
  ['todo-statistics/todo-list', `todo-statistics/todo-list?${qs(Y)}`, 'admin'],
  ['todo-statistics/todo-list (enterprise user)', `todo-statistics/todo-list?${qs(Y)}`, 'user1'],
  ['todo-statistics/region', `todo-statistics/region?${qs(Y)}`, 'admin'],
  ['todo-statistics/enterprise (page 1)', `todo-statistics/enterprise?${qs(Y)}`, 'admin'],
  ['todo-statistics/todo-records (page 1)', `todo-statistics/todo-records?${qs(Y)}`, 'admin'],
  [
    'todo-statistics/todo-records (region, done)',
    `todo-statistics/todo-records?${qs({ ...Y, region: '运城市', state: 'done' })}`,
    'admin',
  ],
  ['todo-statistics/participate-ent-list (page 1)', `todo-statistics/participate-ent-list?${qs(Y)}`, 'admin'],
  ['todo-statistics/participate-ent-list (enterprise user)', `todo-statistics/participate-ent-list?${qs(Y)}`, 'user1'],
];
const only = process.env.ONLY ? new RegExp(process.env.ONLY) : null;
const results = [];
for (const [label, p, who] of cases) {
  if (only && !only.test(label)) continue;
  const first = await get(`/ks/task/v1/${p}`, tokens[who]);
  if (first.status !== 200) throw new Error(`${label}: ${first.status} ${first.text.slice(0, 200)}`);
  results.push(
    await measure(
      `GET ${label} as ${who}`,
      async () => {
        const r = await get(`/ks/task/v1/${p}`, tokens[who]);
        if (r.status !== 200) throw new Error(`${label}: ${r.status}`);
      },
      { concurrency: CONCURRENCY, seconds: SECONDS, warmup: WARMUP },
    ),
  );
}
await server.stop();
if (!reuse && process.env.KEEP_DB !== '1') {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
} else console.info(`database ${name} kept`);
const out = {
  at: new Date().toISOString(),
  machine: machine(),
  loadAtStart,
  transactions: TXN,
  todos: TODOS,
  enterprises: ENTS,
  concurrency: CONCURRENCY,
  seconds: SECONDS,
  setup,
  results,
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/stats.json'), `${JSON.stringify(out, null, 2)}\n`);
console.info(JSON.stringify(out, null, 2));
