/**
 * Sealed bids (issue 16). Two measurements:
 *  1. server: BIDDERS (50) bidders of one section upload a SIZE_MB (200) MiB encrypted bid file each, all at once
 *     (upload-task → chunk-upload ×n, one chunk in flight per bidder, each chunk with its SHA-256 → finish, where the
 *     server joins the chunks and hashes the stored ciphertext); then the same bidders upload a plain file of the same
 *     size through the files module's chunked upload (upload-task → chunk-upload → file-merge with MD5). All stored is
 *     checked; throughput is the bytes of all bidders over the wall time; the server's RSS is read from /proc every
 *     100 ms. PostgreSQL (BENCH_PG_URL, default the local server): each bidder is an enterprise of its own.
 *     The ciphertext is random bytes of the format's sizes (the server cannot tell it from real ciphertext), made once
 *     and shared, so the client's CPU goes to sending.
 *  2. browser: the web's own encryptFile (apps/web/src/lib/bidCrypto.ts, bundled with esbuild) encrypting a
 *     BROWSER_MB (500) MiB file chosen in a file input (a File on disk, as a bidder's) in Chromium — every chunk made
 *     in order and the plaintext's SHA-256 — RUNS (3) times.
 * Run: npm run bench:bids   (ONLY=server|browser; BIDDERS, SIZE_MB, BROWSER_MB, RUNS; BENCH_PORT 18340)
 */
import { createHash, generateKeyPairSync, randomBytes, randomFillSync } from 'node:crypto';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { BID_CIPHER_CHUNK, BID_PLAIN_CHUNK, bidCipherSize, creditCodeCheckChar } from '@ks/contracts';
import { chromium } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { build } from 'esbuild';
import pg from 'pg';
import { openPostgres } from '../apps/server/src/db/client';
import { enterprises, tenderRegistrations, tenderSections, users } from '../apps/server/src/db/schema';
import { projects } from '../apps/server/src/modules/tender/project';
import { createLocalStorage } from '../apps/server/src/platform/storage/local';
import { seedDemo } from '../apps/server/src/seed/demo';
import { machine, root, signIn, startServer } from './lib';

const ONLY = process.env.ONLY;
const BIDDERS = Number(process.env.BIDDERS ?? 50);
const SIZE_MB = Number(process.env.SIZE_MB ?? 200);
const BROWSER_MB = Number(process.env.BROWSER_MB ?? 500);
const RUNS = Number(process.env.RUNS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 18340);
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const results: Record<string, unknown> = { machine: machine(), loadAtStart: os.loadavg().map((x) => +x.toFixed(2)) };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) n += statSync(path.join(e.parentPath, e.name)).size;
  }
  return n;
}

async function serverBench() {
  const name = `ks_bench_bids_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const databaseUrl = u.toString();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ks-bench-bids-'));
  {
    const database = await openPostgres(databaseUrl, 4);
    await database.migrate();
    await seedDemo(database.db, { storage: createLocalStorage(path.join(dataDir, 'files')) });
    await database.close();
  }
  // BIDDERS enterprises, one account each (user1's password), registered for 御河东路 BD-01
  let section: string;
  {
    const database = await openPostgres(databaseUrl, 4);
    const db = database.db;
    const [project] = await projects.list(db, { where: { xmbh: 'SXGC-2026-1102' } });
    const [s] = await db.select().from(tenderSections).where(eq(tenderSections.projectId, project!.id));
    section = s!.id;
    const [u1] = await db.select().from(users).where(eq(users.account, 'user1'));
    for (let i = 0; i < BIDDERS; i++) {
      const base = `91140100MA0B${String(i).padStart(5, '0')}`;
      const [e] = await db
        .insert(enterprises)
        .values({
          legalPerson: '基准法人',
          region: '太原市',
          address: '太原市小店区基准路 1 号',
          registeredCapital: '10000000',
          establishedAt: '2010-01-01',
          name: `基准投标企业${i}`,
          creditCode: `${base}${creditCodeCheckChar(base)}`,
        })
        .returning();
      const [usr] = await db
        .insert(users)
        .values({
          account: `bidder${i}`,
          userName: `投标人${i}`,
          loginRoleType: 'U',
          passwordHash: u1!.passwordHash,
          enterpriseId: e!.id,
        })
        .returning();
      await db.insert(tenderRegistrations).values({
        sectionId: section,
        enterpriseId: e!.id,
        userId: usr!.id,
        contact: '张伟',
        phone: '13900000000',
        registeredAt: new Date(),
      });
    }
    await database.close();
  }

  const server = await startServer({
    port: PORT,
    dataDir,
    env: { DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '1000000', SINGLE_SESSION: '0', DB_POOL_SIZE: '20' },
  });
  try {
    const pid = server.proc.pid!;
    // sign-ins ask the public-key endpoint, limited to 60 a minute per address: 30 at a time, a minute apart
    const tokens: string[] = [];
    for (let i = 0; i < BIDDERS; i += 30) {
      if (i > 0) await new Promise((r) => setTimeout(r, 61_000));
      const batch = Array.from({ length: Math.min(30, BIDDERS - i) }, (_, k) => `bidder${i + k}`);
      for (const a of batch) tokens.push(await signIn(server.url, a, 'Demo@2026', 'U'));
    }
    const call = async (token: string, p: string, body: unknown) => {
      const r = await fetch(`${server.url}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      const j = (await r.json()) as { code: number; data: any; message: string };
      if (r.status !== 200) throw new Error(`${p}: ${r.status} ${j.message}`);
      return j.data;
    };
    const form = async (token: string, p: string, fields: Record<string, string>, chunk: Buffer) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.append(k, v);
      f.append('file', new Blob([chunk as Uint8Array<ArrayBuffer>]), 'chunk.pdf');
      const r = await fetch(`${server.url}${p}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: f,
      });
      if (r.status !== 200) throw new Error(`${p}: ${r.status} ${((await r.json()) as { message: string }).message}`);
    };

    // the shared "ciphertext": SIZE_MB MiB in whole 5 MiB chunks, the plaintext 16 bytes a chunk shorter
    const n = Math.round((SIZE_MB * 1024 * 1024) / BID_CIPHER_CHUNK);
    const plainSize = n * BID_PLAIN_CHUNK;
    const chunks = Array.from({ length: n }, (_, i) => {
      const b = randomFillSync(Buffer.alloc(BID_CIPHER_CHUNK));
      if (i === 0) Buffer.from('%PDF-1.7\n').copy(b);
      return b;
    });
    const shas = chunks.map((c) => createHash('sha256').update(c).digest('hex'));
    const md5 = chunks.reduce((h, c) => h.update(c), createHash('md5')).digest('hex');
    const total = BIDDERS * n * BID_CIPHER_CHUNK;

    const measure = async (label: string, one: (token: string, i: number) => Promise<void>) => {
      const before = rssMiB(pid);
      const samples = [before];
      const timer = setInterval(() => samples.push(rssMiB(pid)), 100);
      const t0 = performance.now();
      try {
        await Promise.all(tokens.map((t, i) => one(t, i)));
      } finally {
        clearInterval(timer);
      }
      const s = (performance.now() - t0) / 1000;
      const r = {
        bidders: BIDDERS,
        fileMiB: (n * BID_CIPHER_CHUNK) / 1024 ** 2,
        seconds: +s.toFixed(1),
        MiBps: +(total / 1024 ** 2 / s).toFixed(1),
        rssBeforeMiB: +before.toFixed(0),
        rssMaxMiB: +Math.max(...samples).toFixed(0),
        rssAfterMiB: +rssMiB(pid).toFixed(0),
      };
      console.info(label, JSON.stringify(r));
      return r;
    };

    const spki = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' });
    const keys = await Promise.all(
      tokens.map((t) =>
        call(t, '/ks/trade/bid/v1/key', {
          kind: 'passphrase',
          publicKey: spki.toString('base64'),
          encryptedPrivateKey: randomBytes(1232).toString('base64'),
          iv: randomBytes(12).toString('base64'),
          kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 600_000, salt: randomBytes(16).toString('base64') },
        }),
      ),
    );
    const sealed = await measure('encrypted bids', async (token, i) => {
      const task = await call(token, '/ks/trade/bid/v1/upload-task', {
        sectionId: section,
        fileName: `投标文件${i}.pdf`,
        plainSize,
        cipherSize: bidCipherSize(plainSize),
        keyId: keys[i].id,
        wrappedKey: randomBytes(256).toString('base64'),
      });
      for (let c = 0; c < n; c++) {
        await form(
          token,
          '/ks/trade/bid/v1/chunk-upload',
          { uploadId: task.uploadId, chunk: String(c), sha256: shas[c]! },
          chunks[c]!,
        );
      }
      await call(token, '/ks/trade/bid/v1/finish', {
        uploadId: task.uploadId,
        plainSha256: '0'.repeat(64),
        // the sealed 开标一览表 (its bytes are opaque to the server until opening)
        summary: randomBytes(96).toString('base64'),
      });
    });
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    const stored = (
      await check.query(
        `select count(*)::int as n, count(distinct cipher_sha256)::int as hashes from bid_files where status = 'sealed' and section_id = $1`,
        [section],
      )
    ).rows[0];
    const want = chunks.reduce((h, c) => h.update(c), createHash('sha256')).digest('hex');
    const right = (await check.query(`select count(*)::int as n from bid_files where cipher_sha256 = $1`, [want]))
      .rows[0].n;
    console.info(`sealed: ${stored.n} of ${BIDDERS}, each with the SHA-256 of what was sent: ${right}`);

    const plain = await measure('plain chunked upload', async (token, i) => {
      const task = await call(token, '/ks/upload/v1/upload-task', {
        md5,
        fileName: `投标文件${i}.pdf`,
        chunk: n,
        fileSize: n * BID_CIPHER_CHUNK,
      });
      for (let c = 0; c < n; c++) {
        await form(token, '/ks/upload/v1/chunk-upload', { uploadId: task.uploadId, chunk: String(c), md5 }, chunks[c]!);
      }
      await call(token, '/ks/upload/v1/file-merge', {
        uploadId: task.uploadId,
        fileName: `投标文件${i}.pdf`,
        md5,
      });
    }).catch((e) => {
      console.error('plain chunked upload failed:', (e as Error).message);
      return { error: (e as Error).message };
    });
    const files = (await check.query(`select count(*)::int as n from files where md5 = $1`, [md5])).rows[0].n;
    console.info(`plain files stored: ${files} of ${BIDDERS}`);
    await check.end();
    const onDisk = dirBytes(path.join(dataDir, 'files'));
    results.server = {
      sealed,
      sealedStored: stored.n,
      sealedHashRight: right,
      plain,
      plainStored: files,
      bytesOnDiskGiB: +(onDisk / 1024 ** 3).toFixed(2),
    };
  } finally {
    await server.stop();
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    await a.query(`drop database if exists ${name} with (force)`);
    await a.end();
  }
}

async function browserBench() {
  const out = await build({
    stdin: {
      contents: `import { encryptFile, importPublicKey } from './apps/web/src/lib/bidCrypto';
        window.__bench = async (spki) => {
          const file = document.querySelector('input[type=file]').files[0];
          const key = await importPublicKey(spki);
          const t0 = performance.now();
          const enc = await encryptFile(file, key);
          let bytes = 0;
          for (let i = 0; i < enc.chunkCount; i++) bytes += (await enc.chunk(i)).length;
          const sha = enc.plainSha256();
          return { ms: performance.now() - t0, bytes, sha };
        };`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    write: false,
    target: 'es2022',
  });
  const script = out.outputFiles[0]!.text;
  const http = createServer((req, res) => {
    if (req.url === '/bench.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><input type="file"><script src="/bench.js"></script>');
  });
  await new Promise<void>((r) => http.listen(PORT + 1, '127.0.0.1', r));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${PORT + 1}/`);
  await page.waitForFunction(() => 'crypto' in window && (window as unknown as { __bench?: unknown }).__bench);
  const spki = generateKeyPairSync('rsa', { modulusLength: 3072 })
    .publicKey.export({ type: 'spki', format: 'der' })
    .toString('base64');
  // the bid file: random bytes on disk, chosen in the page's file input as a bidder chooses theirs
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ks-bench-bid-'));
  const bidFile = path.join(dir, 'bid.pdf');
  const block = randomBytes(8 * 1024 * 1024);
  writeFileSync(bidFile, '');
  for (let m = 0; m < BROWSER_MB; m += 8)
    appendFileSync(bidFile, block.subarray(0, Math.min(8, BROWSER_MB - m) * 1024 * 1024));
  await page.locator('input[type=file]').setInputFiles(bidFile);
  const expectedSha = createHash('sha256').update(readFileSync(bidFile)).digest('hex');
  const rates: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const res = (await page.evaluate(
      (key) =>
        (window as unknown as { __bench: (k: string) => Promise<{ ms: number; bytes: number; sha: string }> }).__bench(
          key,
        ),
      spki,
    )) as { ms: number; bytes: number; sha: string };
    if (res.sha !== expectedSha) throw new Error(`the browser's SHA-256 ${res.sha} is not the file's ${expectedSha}`);
    const rate = BROWSER_MB / (res.ms / 1000);
    rates.push(rate);
    console.info(
      `browser run ${r + 1}: ${BROWSER_MB} MiB in ${(res.ms / 1000).toFixed(2)} s = ${rate.toFixed(0)} MiB/s (ciphertext ${res.bytes} bytes)`,
    );
  }
  const version = browser.version();
  await browser.close();
  http.close();
  rmSync(dir, { recursive: true, force: true });
  results.browser = {
    chromium: version,
    mib: BROWSER_MB,
    runsMiBps: rates.map((x) => +x.toFixed(0)),
    medianMiBps: +median(rates).toFixed(0),
  };
}

if (ONLY !== 'browser') await serverBench();
if (ONLY !== 'server') await browserBench();
console.info(JSON.stringify(results, null, 2));
const file = path.join(root, 'bench', 'results', 'bids.json');
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
