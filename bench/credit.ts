/**
 * Credit at scale (issue 13), on PostgreSQL:
 * 1. the public credit list with ENTERPRISES enterprises (1,000,000 by default), each graded: search by a name prefix
 *    and by a unified social credit code, page 1 of 10, at CONCURRENCY connections (32) — the API beside the same
 *    query sent as raw SQL through `pg`;
 * 2. regrading one enterprise that has RECORDS passed records (500): the regrade statement inside a transaction, as
 *    a review decision runs it.
 * Run: npm run bench:credit   (BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres by default)
 * ENTERPRISES=20000 for a quick proof; KEEP_DB=1 keeps the loaded database, BENCH_DB=<name> reuses it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { creditCodeCheckChar } from '@ks/contracts';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPostgres } from '../apps/server/src/db/client';
import { creditStandards, enterprises } from '../apps/server/src/db/schema';
import { regrade } from '../apps/server/src/modules/credit/grade.service';
import { createLocalStorage } from '../apps/server/src/platform/storage/local';
import { seedDemo } from '../apps/server/src/seed/demo';
import { machine, load as measure, pct, root, startServer } from './lib';

const ENTERPRISES = Number(process.env.ENTERPRISES ?? 1_000_000);
const RECORDS = Number(process.env.RECORDS ?? 500);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
const SECONDS = Number(process.env.SECONDS ?? 15);
const WARMUP = Number(process.env.WARMUP ?? 3);
const REGRADES = Number(process.env.REGRADES ?? 300);
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const loadAtStart = os.loadavg().map((x) => +x.toFixed(2));

const reuse = process.env.BENCH_DB;
const keep = process.env.KEEP_DB === '1' || Boolean(reuse);
const name = reuse ?? `ks_bench_credit_${Date.now()}`;
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

// names as a register has them: a brand of two characters, a second word, a line of business, a number
const BRANDS = [
  '晋阳',
  '并州',
  '龙城',
  '汾河',
  '太行',
  '吕梁',
  '五台',
  '恒山',
  '雁门',
  '河东',
  '潞安',
  '泽州',
  '上党',
  '三晋',
  '晋中',
  '平遥',
  '云冈',
  '壶口',
  '中条',
  '绵山',
  '沁水',
  '黄河',
  '晋城',
  '长治',
  '朔州',
  '忻州',
  '临汾',
  '运城',
  '阳泉',
  '大同',
  '晋北',
  '晋南',
  '晋东',
  '华晋',
  '同煤',
  '晋能',
  '国新',
  '建投',
  '路桥',
  '宏达',
  '鑫源',
  '恒泰',
  '瑞丰',
  '德隆',
  '金石',
  '天成',
  '正大',
  '万通',
  '永昌',
  '兴盛',
  '广厦',
  '安泰',
  '中兴',
  '东方',
  '华泰',
  '联创',
  '诚信',
  '博远',
  '宏图',
  '昌盛',
  '富民',
  '盛世',
  '新元',
  '泰和',
  '嘉禾',
  '明德',
  '厚德',
  '鼎盛',
  '隆基',
  '晨光',
  '伟业',
  '振兴',
  '腾飞',
  '远大',
  '恒基',
  '广源',
  '汇通',
  '锦程',
  '聚力',
  '凯达',
  '信达',
  '宝鼎',
  '金诺',
  '银河',
  '星火',
  '光明',
  '和平',
  '春晖',
  '兴隆',
  '华宇',
  '宏伟',
  '世纪',
  '开元',
  '天正',
  '同心',
  '众诚',
  '百川',
  '千禧',
];
const WORDS = [
  '建设',
  '建工',
  '路桥',
  '市政',
  '安装',
  '水利',
  '电力',
  '装饰',
  '监理',
  '设计',
  '咨询',
  '科技',
  '实业',
  '工程',
];
const LINES = ['工程有限公司', '集团有限公司', '建筑有限公司', '工程咨询有限公司', '科技有限公司', '股份有限公司'];
const CODE_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';

function codeOf(i: number): string {
  // 91 + a division code of Shanxi + an organisation code from the sequence number
  let n = i;
  let org = '';
  for (let k = 0; k < 9; k++) {
    org = CODE_CHARS[n % 31] + org;
    n = Math.floor(n / 31);
  }
  const first17 = `91140${String(100 + (i % 900)).padStart(3, '0')}${org}`;
  return `${first17}${creditCodeCheckChar(first17)}`;
}

let benchEnterprise = '';
const sampleCodes: string[] = [];
if (!reuse) {
  const database = await openPostgres(databaseUrl, 4);
  await database.migrate();
  // the demo's evidence files: a store of their own (the bench does not read them)
  await seedDemo(database.db, { storage: createLocalStorage(mkdtempSync(path.join(os.tmpdir(), 'ks-bench-seed-'))) });
  const t0 = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const BATCH = 20_000;
  for (let from = 0; from < ENTERPRISES; from += BATCH) {
    const names: string[] = [];
    const codes: string[] = [];
    for (let i = from; i < Math.min(ENTERPRISES, from + BATCH); i++) {
      names.push(
        `${BRANDS[i % BRANDS.length]}${WORDS[Math.floor(i / BRANDS.length) % WORDS.length]}${LINES[i % LINES.length]}${i}`,
      );
      codes.push(codeOf(i + 1_000_000));
    }
    await client.query(
      `insert into enterprises (name, credit_code, enterprise_type, region)
       select n, c, '施工企业', '太原市' from unnest($1::text[], $2::text[]) as t(n, c)`,
      [names, codes],
    );
  }
  console.info(`inserted ${ENTERPRISES} enterprises in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const t1 = performance.now();
  // every enterprise graded: base 80 plus random points, its level by the thresholds, valid for up to a year
  await client.query(`
    insert into credit_grades (subject_kind, subject_id, enterprise_id, base_score, good_points, bad_points, score,
      level, counted_records, computed_at, valid_until)
    select 'enterprise', e.id, e.id, 80, t.good, t.bad, greatest(0, 80 + t.good - t.bad),
      (select l.title from credit_levels l where l.min_score <= greatest(0, 80 + t.good - t.bad)
        order by l.min_score desc limit 1),
      3, now(), current_date + (random() * 365)::int
    from enterprises e
    cross join lateral (select round((random() * 20)::numeric, 1) as good, round((random() * 30)::numeric, 1) as bad
      where e.id is not null) t
    on conflict (subject_kind, subject_id) do nothing`);
  console.info(`graded them in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  const t2 = performance.now();
  await client.query('vacuum (analyze) enterprises');
  await client.query('vacuum (analyze) credit_grades');
  console.info(`vacuum analyze in ${((performance.now() - t2) / 1000).toFixed(1)} s`);
  await client.end();
  await database.close();
}

// the enterprise with RECORDS passed records, for the regrade
{
  const database = await openPostgres(databaseUrl, 2);
  const db = database.db;
  const [e] = await db
    .select({ id: enterprises.id })
    .from(enterprises)
    .where(sql`${enterprises.name} = '示例建设工程有限公司'`);
  benchEnterprise = e!.id;
  const have = Number(
    (
      (await db.execute(
        sql`select count(*)::int as n from credit_conduct_records where subject_id = ${benchEnterprise} and status = 'passed'`,
      )) as unknown as { rows: { n: number }[] }
    ).rows[0]!.n,
  );
  if (have < RECORDS) {
    const standards = await db.select().from(creditStandards).where(sql`${creditStandards.appliesTo} = 'enterprise'`);
    await db.execute(sql`
      insert into credit_conduct_records (subject_kind, subject_id, enterprise_id, standard_id, score, start_time,
        end_time, title, source, status, created_by_name, submitted_at, submitted_by_name, audited_at, audited_by_name)
      select 'enterprise', ${benchEnterprise}::uuid, ${benchEnterprise}::uuid,
        (${`{${standards.map((s) => s.id).join(',')}}`}::uuid[])[1 + (g % ${standards.length})],
        (g % 7) + 0.5, current_date - (g % 700), current_date - (g % 700) + 30 + (g % 500),
        '基准记录 ' || g, 'imported', 'passed', '基准', now(), '基准', now(), '基准'
      from generate_series(1, ${RECORDS - have}) g`);
    await db.execute(sql`analyze credit_conduct_records`);
  }
  const codes = (await db.execute(
    sql`select credit_code from enterprises order by random() limit 1000`,
  )) as unknown as { rows: { credit_code: string }[] };
  for (const r of codes.rows) sampleCodes.push(r.credit_code);
  const plan = (await db.execute(sql`explain select e.name from enterprises e
      left join credit_grades g on g.subject_kind = 'enterprise' and g.subject_id = e.id
      where e.name collate "C" like '晋阳%' order by e.name collate "C", e.id limit 10`)) as unknown as {
    rows: Record<string, string>[];
  };
  console.info(plan.rows.map((r) => Object.values(r)[0]).join('\n'));
  await database.close();
}
if (process.env.SETUP_ONLY === '1') {
  console.info(`database ${name} kept`);
  process.exit(0);
}

const load = (label: string, once: (i: number) => Promise<void>) =>
  measure(label, once, { concurrency: CONCURRENCY, seconds: SECONDS, warmup: WARMUP });

// 1. the regrade of one enterprise with RECORDS records: alone in a transaction of its own (begin, locks, the
// statement, commit — what a decision's transaction adds, plus a commit of its own), and the statement by itself
const regradeResult = await (async () => {
  const database = await openPostgres(databaseUrl, 2);
  const whole: number[] = [];
  const inside: number[] = [];
  for (let i = 0; i < REGRADES + 20; i++) {
    const t0 = performance.now();
    await database.db.transaction(async (tx) => {
      const t1 = performance.now();
      await regrade(tx, { kind: 'enterprise', id: benchEnterprise }, new Date());
      if (i >= 20) inside.push(performance.now() - t1);
    });
    if (i >= 20) whole.push(performance.now() - t0);
  }
  const g = await database.db.transaction((tx) => regrade(tx, { kind: 'enterprise', id: benchEnterprise }, new Date()));
  await database.close();
  const stats = (times: number[]) => {
    times.sort((a, b) => a - b);
    return { p50: +pct(times, 50).toFixed(2), p95: +pct(times, 95).toFixed(2), p99: +pct(times, 99).toFixed(2) };
  };
  const r = {
    case: `regrade one enterprise with ${RECORDS} passed records`,
    runs: whole.length,
    insideTransaction: stats(inside),
    ownTransaction: stats(whole),
    counted: g.countedRecords,
    score: g.score,
  };
  console.info(JSON.stringify(r));
  return r;
})();

const server = await startServer({
  port: 18500,
  env: { DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '1000000', SINGLE_SESSION: 'false' },
});
process.on('exit', () => server.proc.kill('SIGKILL'));

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const target = new URL(server.url);
const get = (p: string) =>
  new Promise<string>((resolve, reject) => {
    const req = http.request({ agent, host: target.hostname, port: target.port, path: p, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
const brand = (i: number) => BRANDS[(i * 7) % BRANDS.length]!;
const listPath = (q: Record<string, string>) => `/ks/credit/public/list?${new URLSearchParams(q).toString()}`;

const apiPrefix = () =>
  load('API: GET /ks/credit/public/list, name prefix, page 1', async (i) => {
    const j = JSON.parse(await get(listPath({ keyword: brand(i), pageSize: '10' }))) as {
      code: number;
      data: { records: { name: string }[] };
    };
    if (j.code !== 200 || j.data.records.length !== 10 || !j.data.records[0]!.name.startsWith(brand(i)))
      throw new Error(`unexpected answer ${JSON.stringify(j).slice(0, 200)}`);
  });
const apiCode = () =>
  load('API: GET /ks/credit/public/list, credit code', async (i) => {
    const code = sampleCodes[i % sampleCodes.length]!;
    const j = JSON.parse(await get(listPath({ keyword: code }))) as {
      code: number;
      data: { records: { creditCode: string }[] };
    };
    if (j.code !== 200 || j.data.records[0]?.creditCode !== code) throw new Error(`unexpected answer for ${code}`);
  });

const pool = new pg.Pool({ connectionString: databaseUrl, max: CONCURRENCY });
const FROM = `enterprises e left join credit_grades g on g.subject_kind = 'enterprise' and g.subject_id = e.id`;
const rawPage = `select e.id, e.name, e.credit_code, g.level, g.score, g.computed_at, g.valid_until::text as valid_until
  from ${FROM} where e.name collate "C" like $1 order by e.name collate "C", e.id limit 10`;
const rawCount = `select count(*)::int as n from (select 1 from ${FROM} where e.name collate "C" like $1 limit 1001) t`;
const rawPrefix = () =>
  load('raw SQL through pg: name prefix, page + capped count (2 statements)', async (i) => {
    const [page] = await Promise.all([
      pool.query({ name: 'p', text: rawPage, values: [`${brand(i)}%`] }),
      pool.query({ name: 'c', text: rawCount, values: [`${brand(i)}%`] }),
    ]);
    if (page.rows.length !== 10) throw new Error('unexpected raw answer');
  });
const rawCodePage = rawPage.replace('e.name collate "C" like $1', 'e.credit_code = $1');
const rawCodeCount = rawCount.replace('e.name collate "C" like $1', 'e.credit_code = $1');
const rawCode = () =>
  load('raw SQL through pg: credit code, page + capped count (2 statements)', async (i) => {
    const code = sampleCodes[i % sampleCodes.length]!;
    const [page] = await Promise.all([
      pool.query({ name: 'pc', text: rawCodePage, values: [code] }),
      pool.query({ name: 'cc', text: rawCodeCount, values: [code] }),
    ]);
    if (page.rows.length !== 1) throw new Error('unexpected raw answer');
  });

const a1 = await apiPrefix();
const r1 = await rawPrefix();
const a2 = await apiCode();
const r2 = await rawCode();
const a3 = await apiPrefix();
await pool.end();
agent.destroy();
const results = [a1, r1, a2, r2, a3];
console.table(results);
const worse = a1.p99 >= a3.p99 ? a1 : a3;
const out = {
  date: new Date().toISOString(),
  machine: machine(),
  loadAtStart,
  enterprises: ENTERPRISES,
  concurrency: CONCURRENCY,
  seconds: SECONDS,
  results,
  p99RatioPrefix: +(worse.p99 / r1.p99).toFixed(2),
  p99RatioCode: +(a2.p99 / r2.p99).toFixed(2),
  regrade: regradeResult,
};
console.info(JSON.stringify(out, null, 2));
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/credit.json'), `${JSON.stringify(out, null, 2)}\n`);
await server.stop();
if (keep) console.info(`database ${name} kept (BENCH_DB=${name} reuses it)`);
else {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
process.exit(0);
