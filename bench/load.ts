/**
 * Issue 20 (reliability): a load test of the platform as a whole on PostgreSQL. `VUS` (200) virtual users for
 * `SECONDS` (300), each in a bounded loop of visits with think times of `THINK_MS` (1,000) ± 50 % between the steps:
 *
 *   portal  — the home page's three calls (platform, config, overview) at once, a page of notices, a notice
 *   sign-in — public key + login (argon2id), as the browser does
 *   apply   — a 保函申请 (DZBH_BHSQ, a demo node with one review level): its three required attachments uploaded
 *             through the small-file call (a 5 MiB 招标文件 PDF, a 200 KB licence JPG, a 300 KB application PDF),
 *             the draft saved, the files bound to it, the record submitted; then the node's list and the record
 *   review  — a reviewer (审核员 role) opens the to-do list and the record and passes it
 *   sign-out
 *
 * Each virtual user has an applicant account of its own (in an enterprise of its own); reviewers are `REVIEWERS`
 * (VUS / 10) accounts, each signed in once per virtual user before the run — several sessions of one account, so
 * the servers run with SINGLE_SESSION=0. Against one server process, then two processes on the same database and
 * the same storage directory, the virtual users round-robin between their ports (`PROCESSES=1|2|both`, both by
 * default); each case on a fresh database `ks_bench_load_<timestamp>` with the demo seed. Recorded: every request's
 * latency by action (p50/p95/p99/max), throughput, errors (any answer but HTTP 200 with code 200) with the first
 * messages, and the server processes' RSS (/proc/<pid>/status VmRSS) at the start, every 30 s and at the end.
 * Results: bench/results/load.json; the servers' logs (warn and above) are kept in the temp folder.
 *
 * Run: npm run bench:load   (BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres by default; VUS, SECONDS,
 * THINK_MS, RAMP (seconds over which the users start: 10), UPLOAD_MB (5), REVIEWERS, PROCESSES, SIGN_IN=visit|once
 * (once: each user signs in at its first visit and stays signed in; results in load-signed-in.json), BENCH_PORT (18600 and
 * the next), DB_POOL_SIZE (the server's default, 20), LOGIN_ADDRESS_CAPTCHA_AFTER (10,000), KEEP_DB=1 keeps the
 * databases, SERVER_PROFILE=<dir> writes the servers' CPU profiles there (and no results file))
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { creditCodeCheckChar } from '@ks/contracts';
import pg from 'pg';
import { Agent, FormData, request } from 'undici';
import { machine, pct, root } from './lib';

const VUS = Number(process.env.VUS ?? 200);
const SECONDS = Number(process.env.SECONDS ?? 300);
const THINK_MS = Number(process.env.THINK_MS ?? 1000);
const RAMP = Number(process.env.RAMP ?? 10);
const UPLOAD_MB = Number(process.env.UPLOAD_MB ?? 5);
const REVIEWERS = Number(process.env.REVIEWERS ?? Math.max(1, Math.ceil(VUS / 10)));
const PROCESSES = process.env.PROCESSES ?? 'both';
/** visit: every visit signs in and out (the default); once: each user signs in at its first visit and stays */
const SIGN_IN = process.env.SIGN_IN ?? 'visit';
const PORT = Number(process.env.BENCH_PORT ?? 18600);
const KEEP = process.env.KEEP_DB === '1';
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const GN = 'DZBH_BHSQ';
const PASSWORD = 'Demo@2026';
const SAMPLE_MS = 30_000;
if (!['1', '2', 'both'].includes(PROCESSES)) throw new Error(`PROCESSES must be 1, 2 or both: ${PROCESSES}`);
if (!['visit', 'once'].includes(SIGN_IN)) throw new Error(`SIGN_IN must be visit or once: ${SIGN_IN}`);
if (UPLOAD_MB > 5)
  throw new Error('UPLOAD_MB: files over 5 MiB go through the chunked upload, which this bench does not do');

const load1 = () => +os.loadavg()[0]!.toFixed(2);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const think = () => sleep(THINK_MS * (0.5 + Math.random()));
const rssMb = (pid: number) => {
  try {
    return +(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024).toFixed(1);
  } catch {
    return 0; // the process is gone
  }
};

/** CPU seconds (user + system) a process has used: /proc/<pid>/stat fields 14 and 15, in clock ticks of 1/100 s. */
const cpuOf = (pid: string | number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0; // gone
  }
};
/** CPU seconds of each PostgreSQL process now running (the whole server, other databases' work included). */
const postgresCpu = () =>
  new Map(
    readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
        } catch {
          return false;
        }
      })
      .map((pid) => [pid, cpuOf(pid)] as const),
  );
/** What PostgreSQL's processes running now used since `before` (one that ended in between is not counted). */
const postgresCpuSince = (before: Map<string, number>) =>
  [...postgresCpu()].reduce((sum, [pid, t]) => sum + t - (before.get(pid) ?? 0), 0);
/** The machine's busy and total CPU time so far (/proc/stat, all cores), in clock ticks. */
const machineCpu = () => {
  const [, ...t] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const n = t.map(Number);
  const idle = n[3]! + n[4]!;
  const total = n.reduce((a, x) => a + x, 0);
  return { busy: total - idle, total };
};

// ── the server processes ──────────────────────────────────────────────────────────────────────────────────────────

interface Server {
  proc: ChildProcess;
  url: string;
  port: number;
  log: string;
  exited: boolean;
}

/** The server as lib.ts startServer starts it, with its output kept in `log` (errors are looked up there). */
async function startServer(port: number, env: Record<string, string>, dataDir: string, log: string): Promise<Server> {
  const fd = openSync(log, 'a');
  // SERVER_PROFILE=<dir>: each server writes its CPU profile there when it stops
  const profile = process.env.SERVER_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SERVER_PROFILE}`] : [];
  const proc = spawn(process.execPath, [...profile, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
  });
  closeSync(fd);
  const s: Server = { proc, url: `http://127.0.0.1:${port}`, port, log, exited: false };
  proc.on('exit', () => {
    s.exited = true;
  });
  for (;;) {
    if (s.exited) throw new Error(`server on ${port} exited before it was ready (see ${log})`);
    try {
      if ((await fetch(`${s.url}/ks/health`)).ok) return s;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
}

async function stopServer(s: Server) {
  if (s.exited) return;
  const done = new Promise((r) => s.proc.once('exit', r));
  s.proc.kill('SIGTERM');
  await done;
}

// ── HTTP through undici ───────────────────────────────────────────────────────────────────────────────────────────

const dispatcher = new Agent({ keepAliveTimeout: 30_000, headersTimeout: 120_000, bodyTimeout: 120_000 });

class Failed extends Error {}

interface Stats {
  times: Map<string, number[]>;
  errors: Map<string, number>;
  messages: string[];
  requests: number;
  visits: number;
}

const newStats = (): Stats => ({ times: new Map(), errors: new Map(), messages: [], requests: 0, visits: 0 });

type Body = { code: number; data: any; message: string };

/**
 * One request of the scenario, timed under `action`. Anything but HTTP 200 with the envelope's code 200 is an error:
 * counted, its first messages kept, and the visit given up (the next one starts after a pause).
 */
async function call(
  st: Stats,
  action: string,
  url: string,
  opts: { method?: 'GET' | 'POST'; token?: string; json?: unknown; form?: FormData } = {},
): Promise<any> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | FormData | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) body = opts.form;
  const t0 = performance.now();
  let status = 0;
  let text = '';
  try {
    const res = await request(url, {
      dispatcher,
      method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
    });
    status = res.statusCode;
    text = await res.body.text();
  } catch (e) {
    text = `${(e as Error).name}: ${(e as Error).message}`;
  }
  const ms = performance.now() - t0;
  st.requests++;
  let j: Body | null = null;
  try {
    j = JSON.parse(text) as Body;
  } catch {
    // not JSON: reported as it is
  }
  if (status === 200 && j?.code === 200) {
    const list = st.times.get(action) ?? [];
    if (!list.length) st.times.set(action, list);
    list.push(ms);
    return j.data;
  }
  st.errors.set(action, (st.errors.get(action) ?? 0) + 1);
  if (st.messages.length < 20) {
    const what = j ? `code ${j.code} ${j.message}` : text.slice(0, 200);
    st.messages.push(`${new Date().toISOString()} ${action} (${new URL(url).port}): HTTP ${status} ${what}`);
  }
  throw new Failed(action);
}

async function signIn(st: Stats, base: string, account: string): Promise<string> {
  const { publicKey: key, nonce } = await call(st, 'sign-in: public key', `${base}/ks/common/public-key`);
  const enc = (s: string) =>
    publicEncrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256', oaepLabel: Buffer.from(nonce) },
      Buffer.from(s),
    ).toString('base64');
  const data = await call(st, 'sign-in: login', `${base}/ks/common/login`, {
    json: { logValue: enc(account), passWord: enc(PASSWORD), loginRoleType: enc('U'), nonce },
  });
  return data.token as string;
}

// ── the scenario ──────────────────────────────────────────────────────────────────────────────────────────────────

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const PDF_HEAD = Buffer.from('%PDF-1.7\n');
const BIG = randomBytes(Math.round(UPLOAD_MB * 1024 * 1024));
PDF_HEAD.copy(BIG);
const LICENCE = randomBytes(200 * 1024);
Buffer.from([0xff, 0xd8, 0xff, 0xe0]).copy(LICENCE);
const LETTER = randomBytes(300 * 1024);
PDF_HEAD.copy(LETTER);

/** A file of its own for each upload: the template's bytes with a unique stamp after the header. */
function fileForm(fileNo: string, name: string, template: Buffer) {
  const bytes = Buffer.from(template);
  bytes.write(randomBytes(16).toString('hex'), 16);
  const form = new FormData();
  form.append('gnCoding', GN);
  form.append('fileNo', fileNo);
  form.append('file', new Blob([bytes]), name);
  return form;
}

interface User {
  account: string;
  creditCode: string;
  base: string;
  reviewerToken: string;
  /** the applicant's session, kept between visits with SIGN_IN=once */
  token?: string;
}

async function visit(st: Stats, u: User, n: number, end: number) {
  const b = u.base;
  const step = async () => {
    await think();
    if (performance.now() > end) throw new Failed('time');
  };
  // the portal: home, a page of notices, one notice
  await Promise.all([
    call(st, 'portal: platform', `${b}/ks/portal/v1/home/platform`),
    call(st, 'portal: config', `${b}/ks/portal/v1/home/config`),
    call(st, 'portal: home overview', `${b}/ks/portal/v1/home/overview`),
  ]);
  await step();
  const notices = await call(
    st,
    'portal: notices list',
    `${b}/ks/portal/v1/notices?pageNum=${1 + (n % 3)}&pageSize=10`,
  );
  await step();
  const notice = notices.records[Math.floor(Math.random() * notices.records.length)];
  await call(st, 'portal: notice detail', `${b}/ks/portal/v1/notices/detail?id=${notice.id}`);
  await step();

  const token = u.token ?? (await signIn(st, b, u.account));
  if (SIGN_IN === 'once') u.token = token;
  try {
    await step();
    // a guarantee application: its three files first (the form uploads them as they are chosen), then the draft
    const big = await call(st, `upload: ${UPLOAD_MB} MB`, `${b}/ks/upload/v1/file-upload`, {
      token,
      form: fileForm('03', '招标文件.pdf', BIG),
    });
    const licence = await call(st, 'upload: 200/300 KB', `${b}/ks/upload/v1/file-upload`, {
      token,
      form: fileForm('01', '营业执照.jpg', LICENCE),
    });
    const letter = await call(st, 'upload: 200/300 KB', `${b}/ks/upload/v1/file-upload`, {
      token,
      form: fileForm('02', '保函申请书.pdf', LETTER),
    });
    await step();
    const saved = await call(st, 'engine: save', `${b}/ks/engine/v1/records/save`, {
      token,
      json: {
        gnCoding: GN,
        values: {
          xmmc: `太原市政道路改造工程（压测 ${u.account} 第 ${n + 1} 次）`,
          bdmc: '一标段',
          bhlx: 'tb',
          bhje: 200000,
          sqdwdm: u.creditCode,
          yxq: `${day(10)},${day(200)}`,
          lxr: '张建国',
          lxdh: '13800138000',
        },
      },
    });
    await call(st, 'engine: attach files', `${b}/ks/common/common/upload/file-attachment`, {
      token,
      json: {
        gnCoding: GN,
        id: saved.id,
        fileList: [big, licence, letter].map((f) => ({ fileId: f.fileId, fileOperationType: 'add' })),
      },
    });
    await step();
    const submitted = await call(st, 'engine: submit', `${b}/ks/engine/v1/records/submit`, {
      token,
      json: { gnCoding: GN, id: saved.id, version: saved.version },
    });
    await step();
    const page = await call(st, 'engine: list', `${b}/ks/engine/v1/records/list`, {
      token,
      json: { gnCoding: GN, pageNum: 1, pageSize: 10 },
    });
    await step();
    await call(st, 'engine: detail', `${b}/ks/engine/v1/records/detail`, {
      token,
      json: { gnCoding: GN, id: page.records[0]?.id ?? submitted.id },
    });
    await step();

    // the reviewer decides it
    const r = u.reviewerToken;
    await call(st, 'review: to-do list', `${b}/ks/notification/v1/audit/todo-list`, {
      token: r,
      json: { curPage: 1, pageSize: 10 },
    });
    await step();
    const detail = await call(st, 'review: detail', `${b}/ks/engine/v1/records/detail`, {
      token: r,
      json: { gnCoding: GN, id: submitted.id },
    });
    await step();
    await call(st, 'review: decide', `${b}/ks/engine/v1/records/audit`, {
      token: r,
      json: { gnCoding: GN, id: submitted.id, version: detail.version, pass: true, suggestion: '材料齐全，同意出函' },
    });
    await step();
  } finally {
    if (SIGN_IN === 'visit') await call(st, 'sign-out', `${b}/ks/common/logout`, { token }).catch(() => undefined);
  }
  st.visits++;
}

// ── one case ──────────────────────────────────────────────────────────────────────────────────────────────────────

async function runCase(processes: 1 | 2) {
  const name = `ks_bench_load_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const databaseUrl = u.toString();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ks-bench-load-'));
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
    // all the users sign in from 127.0.0.1, and attempts still being checked count as failures: see bench/README.md
    LOGIN_ADDRESS_CAPTCHA_AFTER: process.env.LOGIN_ADDRESS_CAPTCHA_AFTER ?? '10000',
    SINGLE_SESSION: '0',
    ...(process.env.DB_POOL_SIZE ? { DB_POOL_SIZE: process.env.DB_POOL_SIZE } : {}),
  };
  const servers: Server[] = [];
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const logOf = (port: number) => path.join(os.tmpdir(), `ks-bench-load-${stamp}-${port}.log`);
  try {
    // the first process migrates and seeds; the second joins the same database and storage directory
    servers.push(await startServer(PORT, env, dataDir, logOf(PORT)));
    if (processes === 2) servers.push(await startServer(PORT + 1, env, dataDir, logOf(PORT + 1)));
    console.info(`${processes} process(es) ready on ${name}: pids ${servers.map((s) => s.proc.pid).join(', ')}`);

    // applicants: one account and enterprise each; reviewers: the 审核员 role
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const { rows: hash } = await db.query(`select password_hash from users where account = 'user1'`);
    const { rows: role } = await db.query(`select id from roles where code = 'auditor'`);
    const codes = Array.from({ length: VUS }, (_, i) => {
      const base = `9114010${String(900_000_000 + i).padStart(10, '0')}`;
      return `${base}${creditCodeCheckChar(base)}`;
    });
    const { rows: ents } = await db.query(
      `insert into enterprises (name, credit_code, enterprise_type, region, legal_person, address, registered_capital,
         established_at)
       select '山西压测建设工程第' || i || '有限公司', c, '施工企业', '太原市', '李明华', '太原市小店区长治路 ' || i || ' 号',
         '50000000', '2010-05-18'
       from unnest($1::text[]) with ordinality as x(c, i) order by i returning id`,
      [codes],
    );
    const applicants = Array.from({ length: VUS }, (_, i) => `bench_load_a${i}`);
    await db.query(
      `insert into users (account, user_name, login_role_type, password_hash, enterprise_id)
       select a, '压测申请人' || i, 'U', $2, e from unnest($1::text[], $3::uuid[]) with ordinality as x(a, e, i)`,
      [applicants, hash[0].password_hash, ents.map((r) => r.id)],
    );
    const reviewers = Array.from({ length: REVIEWERS }, (_, i) => `bench_load_r${i}`);
    const { rows: rids } = await db.query(
      `insert into users (account, user_name, login_role_type, password_hash)
       select a, '压测审核员' || a, 'U', $2 from unnest($1::text[]) a returning id`,
      [reviewers, hash[0].password_hash],
    );
    await db.query(`insert into user_roles (user_id, role_id) select unnest($1::uuid[]), $2`, [
      rids.map((r) => r.id),
      role[0].id,
    ]);
    await db.end();

    // each virtual user's reviewer session, signed in one after another before the run (not measured)
    const setup = newStats();
    const users: User[] = [];
    for (let i = 0; i < VUS; i++) {
      const base = servers[i % servers.length]!.url;
      const reviewerToken = await signIn(setup, base, reviewers[i % REVIEWERS]!);
      users.push({ account: applicants[i]!, creditCode: codes[i]!, base, reviewerToken });
    }

    const memory = servers.map((s) => ({
      port: s.port,
      pid: s.proc.pid!,
      samples: [{ t: 0, rssMb: rssMb(s.proc.pid!), load1: load1() }],
    }));
    const loadBefore = os.loadavg().map((x) => +x.toFixed(2));
    const cpu0 = {
      servers: servers.map((s) => cpuOf(s.proc.pid!)),
      postgres: postgresCpu(),
      client: process.cpuUsage(),
      machine: machineCpu(),
    };
    const st = newStats();
    const t0 = performance.now();
    const end = t0 + SECONDS * 1000;
    const sampler = setInterval(() => {
      const t = Math.round((performance.now() - t0) / 1000);
      for (const m of memory) m.samples.push({ t, rssMb: rssMb(m.pid), load1: load1() });
      const errors = [...st.errors.values()].reduce((a, x) => a + x, 0);
      console.info(
        `  ${t} s: ${st.requests} requests, ${st.visits} visits, ${errors} errors, RSS ${memory
          .map((m) => `${m.samples.at(-1)!.rssMb} MB`)
          .join(' / ')}, load ${load1()}`,
      );
    }, SAMPLE_MS);
    await Promise.all(
      users.map(async (user, i) => {
        await sleep((RAMP * 1000 * i) / VUS);
        for (let n = 0; performance.now() < end; n++) {
          try {
            await visit(st, user, n, end);
          } catch (e) {
            if (!(e instanceof Failed)) throw e;
            if (e.message !== 'time') await think();
          }
        }
      }),
    );
    const elapsed = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    for (const m of memory) m.samples.push({ t: Math.round(elapsed), rssMb: rssMb(m.pid), load1: load1() });
    const loadAfter = os.loadavg().map((x) => +x.toFixed(2));
    const m1 = machineCpu();
    const client = process.cpuUsage(cpu0.client);
    // where the CPU went during the run, in seconds (2 cores: at most 2 × the run's length)
    const cpu = {
      servers: servers.map((s, i) => +(cpuOf(s.proc.pid!) - cpu0.servers[i]!).toFixed(1)),
      postgres: +postgresCpuSince(cpu0.postgres).toFixed(1),
      client: +((client.user + client.system) / 1e6).toFixed(1),
      machineBusyPct: +((100 * (m1.busy - cpu0.machine.busy)) / (m1.total - cpu0.machine.total)).toFixed(1),
    };

    const actions = [...st.times.entries()].map(([action, xs]) => {
      xs.sort((a, b) => a - b);
      return {
        action,
        n: xs.length,
        errors: st.errors.get(action) ?? 0,
        p50: +pct(xs, 50).toFixed(1),
        p95: +pct(xs, 95).toFixed(1),
        p99: +pct(xs, 99).toFixed(1),
        max: +xs[xs.length - 1]!.toFixed(1),
      };
    });
    for (const [action, n] of st.errors) {
      if (!st.times.has(action)) actions.push({ action, n: 0, errors: n, p50: 0, p95: 0, p99: 0, max: 0 });
    }
    const errors = [...st.errors.values()].reduce((a, x) => a + x, 0);
    // what the servers logged at warn or above (pino's JSON lines; the start-up banner is plain text)
    const serverErrors = servers.map((s) => {
      const lines = readFileSync(s.log, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{') && Number((JSON.parse(l) as { level?: number }).level) >= 40);
      return { port: s.port, log: s.log, lines: lines.length, first: lines.slice(0, 5).map((l) => l.slice(0, 600)) };
    });
    const result = {
      case: processes === 1 ? 'one process' : 'two processes (same database and storage directory)',
      processes,
      database: name,
      seconds: +elapsed.toFixed(1),
      requests: st.requests,
      perSecond: +(st.requests / elapsed).toFixed(1),
      visits: st.visits,
      visitsPerMinute: +((st.visits / elapsed) * 60).toFixed(1),
      uploadedMb: +(((st.times.get(`upload: ${UPLOAD_MB} MB`)?.length ?? 0) * BIG.length) / 2 ** 20).toFixed(0),
      errors,
      firstErrors: st.messages,
      cpuSeconds: cpu,
      loadBefore,
      loadAfter,
      actions,
      memory: memory.map((m) => ({
        port: m.port,
        startMb: m.samples[0]!.rssMb,
        endMb: m.samples.at(-1)!.rssMb,
        maxMb: Math.max(...m.samples.map((s) => s.rssMb)),
        samples: m.samples,
      })),
      serverLog: serverErrors,
    };
    console.info(
      `\n${result.case}: ${result.requests} requests in ${result.seconds} s (${result.perSecond}/s), ${result.visits} visits, ${errors} errors; load ${loadBefore[0]} → ${loadAfter[0]}`,
    );
    console.table(actions);
    console.info(
      `CPU during the run: servers ${cpu.servers.join(' + ')} s, PostgreSQL ${cpu.postgres} s (all its processes), this client ${cpu.client} s; machine ${cpu.machineBusyPct} % busy`,
    );
    console.table(result.memory.map(({ samples: _, ...m }) => m));
    if (errors) console.info(st.messages.join('\n'));
    for (const s of serverErrors) if (s.lines) console.info(`server ${s.port}: ${s.lines} log lines in ${s.log}`);
    return result;
  } finally {
    await Promise.all(servers.map(stopServer));
    rmSync(dataDir, { recursive: true, force: true });
    if (!KEEP) {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    } else console.info(`database ${name} kept`);
  }
}

const loadAtStart = os.loadavg().map((x) => +x.toFixed(2));
const runs = [];
if (PROCESSES !== '2') runs.push(await runCase(1));
if (PROCESSES !== '1') {
  if (runs.length) await sleep(10_000); // let the machine settle
  runs.push(await runCase(2));
}
const out = {
  when: new Date().toISOString(),
  machine: machine(),
  loadAtStart,
  loadAtEnd: os.loadavg().map((x) => +x.toFixed(2)),
  vus: VUS,
  seconds: SECONDS,
  signIn: SIGN_IN,
  thinkMs: THINK_MS,
  rampSeconds: RAMP,
  uploadMb: UPLOAD_MB,
  reviewers: REVIEWERS,
  target: '0 errors',
  runs,
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
// a profiled run is not a measurement: its figures are printed, not kept
if (!process.env.SERVER_PROFILE)
  writeFileSync(
    path.join(root, `bench/results/load${SIGN_IN === 'once' ? '-signed-in' : ''}.json`),
    `${JSON.stringify(out, null, 2)}\n`,
  );
await dispatcher.close();
