/**
 * Schema engine list at scale (issue 5): the demo node 保函申请 (DZBH_BHSQ) with ROWS records on PostgreSQL; the list
 * endpoint with one filter on a searchable field, the default sort and page size 10, at CONCURRENCY connections —
 * side by side with the same query sent as raw SQL through `pg`. And (issue 12) a substring search of a free-text
 * field (项目名称 contains a number, another at each request), which its trigram index serves.
 * Run: npm run bench:engine   (BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres by default; ROWS=1000000)
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPostgres } from '../apps/server/src/db/client';
import { menuNodes, users } from '../apps/server/src/db/schema';
import { listCounts, listQuery } from '../apps/server/src/modules/engine/list.service';
import { catalogOf, fieldsOf } from '../apps/server/src/modules/engine/node-fields';
import { rowsOf } from '../apps/server/src/modules/engine/record-row';
import { saveFields } from '../apps/server/src/modules/engine/schema.service';
import { normaliseSearchParams, parseSort, searchToConditions } from '../apps/server/src/modules/engine/sqlsafe';
import { SYSTEM_ACTOR } from '../apps/server/src/platform/oplog';
import { createLocalStorage } from '../apps/server/src/platform/storage/local';
import { seedDemo } from '../apps/server/src/seed/demo';
import { DEMO_ENGINE_FIELDS } from '../apps/server/src/seed/engine';
import { machine, load as measure, root, signIn, startServer } from './lib';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
const SECONDS = Number(process.env.SECONDS ?? 15);
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NODE = 'DZBH_BHSQ';
// the machine is shared: what it was doing before this run started (the run itself adds 2–3 busy processes)
const loadAtStart = os.loadavg().map((x) => +x.toFixed(2));

// BENCH_DB=<name> reuses a database a previous run kept (KEEP_DB=1), skipping the 1M-row insert
const reuse = process.env.BENCH_DB;
const keep = process.env.KEEP_DB === '1' || Boolean(reuse);
const name = reuse ?? `ks_bench_engine_${Date.now()}`;
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

let enterpriseId = '';
if (!reuse) {
  const database = await openPostgres(databaseUrl, 4);
  await database.migrate();
  // the demo's evidence files: a store of their own (the bench does not read them)
  await seedDemo(database.db, { storage: createLocalStorage(mkdtempSync(path.join(os.tmpdir(), 'ks-bench-seed-'))) });
  // 保函类型 and 项目名称 are searchable list columns: saving the fields again adds their indexes (项目名称, free
  // text, also its trigram index)
  await database.db
    .update(menuNodes)
    .set({
      columns: [
        ['bhlx', '保函类型'],
        ['xmmc', '项目名称'],
      ].map(([code, name]) => ({
        code,
        name,
        type: 'text',
        show: true,
        isSearch: true,
        isStatus: false,
        listAlignment: '居中',
        width: null,
      })),
    })
    .where(sql`${menuNodes.gnCoding} = ${NODE}`);
  await saveFields(database.db, SYSTEM_ACTOR, NODE, DEMO_ENGINE_FIELDS[NODE]!, 1);
  const [user1] = await database.db.select().from(users).where(sql`${users.account} = 'user1'`);
  enterpriseId = user1!.enterpriseId!;
  const t0 = performance.now();
  await database.db.execute(sql`
    insert into n_dzbh_bhsq (owner_id, enterprise_id, status, created_at, updated_at, f_xmmc, f_bhlx, f_bhje, f_lxr, f_lxdh, f_yxq)
    select ${user1!.id}::uuid, ${enterpriseId}::uuid,
           (array['draft','pending','passed','rejected'])[1 + (g % 4)],
           now() - make_interval(secs => g), now() - make_interval(secs => g),
           '某某市第' || g || '号工程', (array['tb','ly','yfk'])[1 + (g % 3)], (g % 100000) * 100 + 1,
           '张三', '13800138000', '2026-01-01,2026-12-31'
    from generate_series(1, ${ROWS}) g`);
  console.info(`inserted ${ROWS} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // a table that has lived a while has been vacuumed by autovacuum (PostgreSQL 13+ also vacuums after inserts), so
  // its visibility map is set and index-only scans skip the heap; a freshly bulk-loaded one has not been yet
  const t1 = performance.now();
  await database.db.execute(sql`vacuum (analyze) n_dzbh_bhsq`);
  console.info(`vacuum analyze in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  await database.close();
} else {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  enterpriseId = (await c.query(`select enterprise_id from users where account = 'user1'`)).rows[0].enterprise_id;
  await c.end();
}
if (process.env.SETUP_ONLY === '1') {
  console.info(`database ${name} kept`);
  process.exit(0);
}

const server = await startServer({
  port: Number(process.env.BENCH_PORT ?? 18330),
  env: {
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_PER_MINUTE: '1000000',
    SINGLE_SESSION: 'false',
    ...(process.env.DB_POOL_SIZE ? { DB_POOL_SIZE: process.env.DB_POOL_SIZE } : {}),
  },
  // SERVER_PROFILE=<dir> writes the server's CPU profile there when the run ends
  nodeArgs: process.env.SERVER_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SERVER_PROFILE}`] : [],
});
process.on('exit', () => server.proc.kill('SIGKILL'));

// sign in as user1 (RSA-OAEP encrypted credentials, as the browser does)
const token = await signIn(server.url, 'user1', 'Demo@2026', 'U');

const search = { bhlx: 'ly' };
const listBody = JSON.stringify({
  gnCoding: NODE,
  pageNum: 1,
  pageSize: 10,
  search,
  sortField: 'createdAt',
  order: 'desc',
});
const WARMUP = Number(process.env.WARMUP ?? 3);
const load = (label: string, once: () => Promise<void>) =>
  measure(label, once, { concurrency: CONCURRENCY, seconds: SECONDS, warmup: WARMUP });

// a light HTTP client (keep-alive, one socket per virtual user), so the load generator takes little of the 2 cores
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const target = new URL(`${server.url}/ks/engine/v1/records/list`);
const post = (body = listBody) =>
  new Promise<string>((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });

if (process.env.SHOW_ANSWER === '1') {
  const text = await post();
  console.info(`answer: ${Buffer.byteLength(text)} bytes`);
  console.info(text.slice(0, 1500));
}
const viaApi = () =>
  load('API: POST /ks/engine/v1/records/list', async () => {
    const j = JSON.parse(await post()) as {
      code: number;
      data: { records: unknown[]; total: number; totalCapped: boolean };
    };
    if (j.code !== 200 || j.data.records.length !== 10 || j.data.total !== 1000 || !j.data.totalCapped)
      throw new Error(`unexpected answer ${JSON.stringify(j).slice(0, 200)}`);
  });

const pool = new pg.Pool({ connectionString: databaseUrl, max: CONCURRENCY });
// 1. hand-written: the page and the capped count of user1's enterprise, as anyone would write them (two statements)
const rawPage =
  'select * from n_dzbh_bhsq where enterprise_id = $1 and f_bhlx = $2 order by created_at desc, id desc limit 10';
const rawCount =
  'select count(*)::int as n from (select 1 from n_dzbh_bhsq where enterprise_id = $1 and f_bhlx = $2 limit 1001) t';
const handWritten = () =>
  load('raw SQL through pg: page + capped count, hand-written', async () => {
    const [page, count] = await Promise.all([
      pool.query(rawPage, [enterpriseId, 'ly']),
      pool.query(rawCount, [enterpriseId, 'ly']),
    ]);
    if (page.rows.length !== 10 || count.rows[0].n !== 1001) throw new Error('unexpected raw answer');
  });
// 2. the very statement the server sends for this request in steady state — user1 has read the node state and
// counted this filter before: the check that the state still holds (access_version), the kept count answered while
// the node's data version and access_version stand still (counting otherwise), the scope (records asked of user1
// too), keys first, the page's rows
let statement: { sql: string; params: unknown[] };
{
  const database = await openPostgres(databaseUrl, 1);
  const [user1] = await database.db.select().from(users).where(sql`${users.account} = 'user1'`);
  const [node] = await database.db.select().from(menuNodes).where(sql`${menuNodes.gnCoding} = ${NODE}`);
  const fields = fieldsOf(node!);
  const catalog = catalogOf(fields);
  const accessVersion = rowsOf(await database.db.execute(sql`select "v" from "access_version"`))[0]!.v;
  const build = () =>
    listQuery(
      database.db,
      { id: user1!.id, loginRoleType: 'U', enterpriseId },
      { id: node!.id, gnCoding: NODE, version: node!.fieldsVersion, fields, catalog },
      {
        conditions: searchToConditions(normaliseSearchParams(search), catalog),
        sort: parseSort('createdAt', 'desc', catalog),
        pageNum: 1,
        pageSize: 10,
      },
      { confirm: Number(accessVersion) },
    );
  // the first time it counts; what it answers is kept as the server keeps it, and the statement built again binds it
  const first = build();
  const once = new pg.Client({ connectionString: databaseUrl });
  await once.connect();
  const [r] = (await once.query(first.statement.sql, first.statement.params)).rows;
  await once.end();
  listCounts.set(first.countKey, { n: Number(r!.ks_total), dv: Number(r!.ks_dv), av: Number(r!.ks_cav) });
  statement = build().statement;
  await database.close();
}
const apiStatement = () =>
  load('raw SQL through pg: the statement the API sends (prepared, count kept)', async () => {
    const r = await pool.query({ name: 'bench_list', text: statement.sql, values: statement.params });
    if (r.rows.length !== 10 || r.rows[0].ks_total !== 1001 || !r.rows[0].ks_confirmed)
      throw new Error('unexpected statement answer');
  });

// 3. the API while records are being added: a writer inserts one into the node every 50 ms, so every kept count is
// out of date 20 times a second and the next list of each filter counts again
const WRITES_PER_SECOND = Number(process.env.WRITES_PER_SECOND ?? 20);
const viaApiWhileWriting = async () => {
  let writes = 0;
  const timer = setInterval(() => {
    writes++;
    void pool
      .query(
        `insert into n_dzbh_bhsq (owner_id, enterprise_id, status, f_xmmc, f_bhlx, f_bhje, f_lxr, f_lxdh, f_yxq)
         select id, enterprise_id, 'draft', '基准写入', 'ly', 100, '张三', '13800138000', '2026-01-01,2026-12-31'
         from users where account = 'user1'`,
      )
      .catch((e: Error) => console.error(`writer: ${e.message}`));
  }, 1000 / WRITES_PER_SECOND);
  try {
    return await load(`API while a writer adds ${WRITES_PER_SECOND} records/s (kept counts go stale)`, async () => {
      const j = JSON.parse(await post()) as { code: number; data: { records: unknown[]; total: number } };
      if (j.code !== 200 || j.data.records.length !== 10 || j.data.total !== 1000)
        throw new Error(`unexpected answer ${JSON.stringify(j).slice(0, 200)}`);
    });
  } finally {
    clearInterval(timer);
    console.info(`writer: ${writes} inserts`);
  }
};

// 4. substring search (issue 12): 项目名称 (`某某市第<n>号工程`) containing `第<k>` for a random k of 4 or 5 digits —
// 111 or 11 of the ROWS records at 1,000,000 — another term at each request, so no count is kept; the records'
// names are checked to contain it. Served by the field's trigram index (pg_trgm, GIN).
const viaApiSubstring = () =>
  load('API: substring search of a free-text field (项目名称 contains 第<k>)', async () => {
    const k = String(1000 + Math.floor(Math.random() * Math.min(99_000, Math.max(1, ROWS - 1000))));
    const term = `第${k}`;
    const text = await post(
      JSON.stringify({
        gnCoding: NODE,
        pageNum: 1,
        pageSize: 10,
        search: { xmmc: term },
        sortField: 'createdAt',
        order: 'desc',
      }),
    );
    const j = JSON.parse(text) as { code: number; data: { records: { values: { xmmc: string } }[]; total: number } };
    if (j.code !== 200 || !j.data.records.length || j.data.records.some((r) => !r.values.xmmc.includes(term)))
      throw new Error(`unexpected answer ${text.slice(0, 200)}`);
  });

// ONLY=api|raw|statement|writing|substring runs that one case (to profile it)
if (process.env.ONLY) {
  const cases: Record<string, () => ReturnType<typeof viaApi>> = {
    api: viaApi,
    raw: handWritten,
    statement: apiStatement,
    writing: viaApiWhileWriting,
    substring: viaApiSubstring,
  };
  const one = cases[process.env.ONLY];
  if (!one) throw new Error(`ONLY must be one of ${Object.keys(cases).join(', ')}`);
  await one();
  agent.destroy();
  await server.stop();
  process.exit(0);
}
// the API first and last, the raw cases between, so a change in the machine's load shows as a difference
const api1 = await viaApi();
const raw = await handWritten();
const stmt = await apiStatement();
const writing = await viaApiWhileWriting();
const substring = await viaApiSubstring();
const api2 = await viaApi();
await pool.end();
agent.destroy();

const results = [api1, raw, stmt, writing, substring, api2];
console.table(results);
const api = api1.p99 >= api2.p99 ? api1 : api2;
const ratio = +(api.p99 / raw.p99).toFixed(2);
const ratioStatement = +(api.p99 / stmt.p99).toFixed(2);
console.info(
  `p99 (worse API run) ${api.p99} ms; ratio API / hand-written raw SQL: ${ratio}; API / same statement raw: ${ratioStatement}`,
);
const out = {
  date: new Date().toISOString(),
  machine: machine(),
  loadAtStart,
  rows: ROWS,
  concurrency: CONCURRENCY,
  seconds: SECONDS,
  results,
  p99Ratio: ratio,
  p99RatioSameStatement: ratioStatement,
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/engine-list.json'), `${JSON.stringify(out, null, 2)}\n`);
await server.stop();
if (keep) console.info(`database ${name} kept (BENCH_DB=${name} reuses it)`);
else {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
process.exit(0);
