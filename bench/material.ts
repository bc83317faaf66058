/**
 * 材料信息价 at scale (issue 19), on PostgreSQL: one published period of ROWS price rows (200,000 by default) for
 * 太原市 (beside the demo's four), then `POST /ks/material/price/info-list` — the public page's query: a page of 20 in
 * code order with the capped count — at CONCURRENCY connections (8), in four cases: filters only (county and
 * classification), a name search of two Chinese characters with a classification, a code search, and no filter at
 * page 50. Target: p99 < 50 ms.
 * Run: npm run bench:material   (BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres by default)
 * ROWS=20000 for a quick proof; KEEP_DB=1 keeps the loaded database, BENCH_DB=<name> reuses it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { MATERIAL_CITIES, MATERIAL_CLASSIFICATIONS } from '@ks/contracts';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPostgres } from '../apps/server/src/db/client';
import { createLocalStorage } from '../apps/server/src/platform/storage/local';
import { seedDemo } from '../apps/server/src/seed/demo';
import { machine, load as measure, root, startServer } from './lib';

const ROWS = Number(process.env.ROWS ?? 200_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const SECONDS = Number(process.env.SECONDS ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 3);
const PERIOD = '2027-01';
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const loadAtStart = os.loadavg().map((x) => +x.toFixed(2));

const reuse = process.env.BENCH_DB;
const keep = process.env.KEEP_DB === '1' || Boolean(reuse);
const name = reuse ?? `ks_bench_material_${Date.now()}`;
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

// names a bulletin holds (each in many specs and counties): the searches below find a few hundred to thousands
const NAMES = [
  '螺纹钢筋',
  '盘螺',
  '圆钢',
  '工字钢',
  '槽钢',
  '角钢',
  '热轧钢板',
  '焊接钢管',
  '镀锌钢管',
  '普通硅酸盐水泥',
  '中砂',
  '碎石',
  '烧结多孔砖',
  '加气混凝土砌块',
  '商品混凝土',
  '预拌砂浆',
  '松木板方材',
  '胶合板模板',
  'SBS改性沥青防水卷材',
  '聚氨酯防水涂料',
  'PPR给水管',
  'PVC-U排水管',
  '球墨铸铁管',
  '闸阀',
  '铜芯电线',
  '电力电缆',
  '控制电缆',
  '陶瓷地砖',
  '花岗岩板材',
  '纸面石膏板',
  '钢质防火门',
  '断桥铝合金窗',
  '内墙乳胶漆',
  '防锈漆',
  '挤塑聚苯板',
  '岩棉板',
  '沥青混凝土',
  '透水砖',
  '路缘石',
  '井盖',
];

const setup = async () => {
  const database = await openPostgres(databaseUrl, 4);
  await database.migrate();
  const db = database.db;
  const have = (
    (await db.execute(sql`select count(*)::int as n from material_periods where period = ${PERIOD}`)) as unknown as {
      rows: { n: number }[];
    }
  ).rows[0]!.n;
  if (!have) {
    await seedDemo(db, { storage: createLocalStorage(mkdtempSync(path.join(os.tmpdir(), 'ks-bench-seed-'))) });
    const t0 = performance.now();
    const counties = ['', ...MATERIAL_CITIES['太原市']!];
    await db.execute(sql`
      with p as (
        insert into material_periods (period, city, status, row_count, file_name, imported_by_id, published_at)
        select ${PERIOD}, '太原市', 'published', ${ROWS}, 'bench.xlsx', id, now() from users where account = 'admin'
        returning id
      )
      insert into material_prices (period_id, row_no, county, classification, material_group, code, name, spec, unit,
        price_ex, price_in, remark)
      select p.id, g + 1,
        (${`{${counties.map((c) => `"${c}"`).join(',')}}`}::text[])[1 + (g % ${counties.length})],
        (${`{${MATERIAL_CLASSIFICATIONS.map((c) => `"${c}"`).join(',')}}`}::text[])[1 + ((g / ${counties.length}) % ${MATERIAL_CLASSIFICATIONS.length})],
        '材料组' || ((g / ${counties.length}) % 40),
        'B' || lpad(((g / ${counties.length}))::text, 6, '0'),
        (${`{${NAMES.map((c) => `"${c}"`).join(',')}}`}::text[])[1 + ((g / ${counties.length}) % ${NAMES.length})],
        '规格' || (g % 97), 't',
        round((100 + (g % 5000))::numeric / 1.13, 2), (100 + (g % 5000))::numeric, ''
      from p, generate_series(0, ${ROWS - 1}) g`);
    console.info(`loaded ${ROWS} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await db.execute(sql`vacuum analyze material_prices`);
  await db.execute(sql`analyze material_periods`);
  const explain = (await db.execute(sql`explain analyze
    select p.* from material_prices p join material_periods mp on mp.id = p.period_id
    where p.period_id = (select id from material_periods where period = ${PERIOD} and status = 'published')
      and p.classification = '黑色及有色金属' and p.search_text like '%钢管%'
    order by p.code, p.id limit 20`)) as unknown as { rows: Record<string, string>[] };
  console.info(explain.rows.map((r) => Object.values(r)[0]).join('\n'));
  await database.close();
};
await setup();

const server = await startServer({
  port: 18520,
  env: { DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '1000000' },
});
process.on('exit', () => server.proc.kill('SIGKILL'));

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const target = new URL(server.url);
const post = (p: string, body: unknown) =>
  new Promise<string>((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const req = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: p,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': data.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });

const counties = MATERIAL_CITIES['太原市']!;
const info = (label: string, body: (i: number) => Record<string, unknown>, check: (d: Answer) => boolean) =>
  measure(
    `API: POST /ks/material/price/info-list, ${label}`,
    async (i) => {
      const j = JSON.parse(
        await post('/ks/material/price/info-list', { city: '太原市', period: PERIOD, ...body(i) }),
      ) as { code: number; data: Answer };
      if (j.code !== 200 || !check(j.data)) throw new Error(`unexpected answer ${JSON.stringify(j).slice(0, 300)}`);
    },
    { concurrency: CONCURRENCY, seconds: SECONDS, warmup: WARMUP },
  );
type Answer = { records: { code: string; name: string }[]; total: number };

const results = [
  await info(
    'county + classification, page 1',
    (i) => ({ county: counties[i % counties.length], classification: MATERIAL_CLASSIFICATIONS[i % 12] }),
    (d) => d.records.length === 20 && d.total > 20,
  ),
  await info(
    'name search (2 characters) + classification',
    (i) => ({
      keyWord: ['钢管', '水泥', '电缆', '防水', '砂浆'][i % 5],
      classification: MATERIAL_CLASSIFICATIONS[i % 12],
    }),
    (d) => d.records.every((r) => r.name.length > 0),
  ),
  await info(
    'code search',
    (i) => ({ keyWord: `B${String((i * 37) % Math.floor(ROWS / 11)).padStart(6, '0')}` }),
    (d) => d.records.length > 0,
  ),
  await info(
    'no filter, page 50',
    () => ({ pageNum: 50 }),
    (d) => d.records.length === 20,
  ),
];
console.table(results);

const out = {
  when: new Date().toISOString(),
  machine: machine(),
  loadAtStart,
  rows: ROWS,
  concurrency: CONCURRENCY,
  seconds: SECONDS,
  target: 'p99 < 50 ms',
  results,
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/material.json'), `${JSON.stringify(out, null, 2)}\n`);
await server.stop();
agent.destroy();
if (!keep) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
} else console.info(`database ${name} kept`);
