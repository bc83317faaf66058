/**
 * Issue 17: the opening hall with `VIEWERS` (500) viewers on two server processes while `BIDS` (50) bids are read out.
 * The viewers are supervisors (the demo 监督 role: they may watch every hall), each with a session and an open live
 * stream, half on process A and half on process B (same PostgreSQL database: events cross through LISTEN/NOTIFY). The
 * host (the demo agent) reads the bids out one by one on A. Measured per reading, from the moment the read request is
 * sent to the moment each viewer has parsed the `opening` event: p50/p95/p99 over all viewers and readings. With
 * `REREAD=1` each viewer also re-reads the hall on the event (what the page does) and that time is reported too.
 *
 * The section is the demo's SXGC-2026-1005 BD-01, brought to its reading stage by SQL (the bench measures the reading,
 * not the decryption): `BIDS` more bidders with sealed, decrypted bids beside the demo's three.
 *
 * Run: npm run bench:opening (BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres by default; VIEWERS=500,
 * BIDS=50, BENCH_PORT=18350 and the next one for the second process)
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LIVE_STREAM_PATH } from '@ks/contracts';
import { createParser } from 'eventsource-parser';
import pg from 'pg';
import { machine, pct, root, signIn, startServer } from './lib';

const VIEWERS = Number(process.env.VIEWERS ?? 500);
const BIDS = Number(process.env.BIDS ?? 50);
const PORT = Number(process.env.BENCH_PORT ?? 18350);
const REREAD = process.env.REREAD === '1';
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Viewer {
  heard: number;
  seen: number;
  ctl: AbortController;
}

async function openStreams(url: string, tokens: string[], sectionId: string): Promise<Viewer[]> {
  const out: Viewer[] = [];
  await Promise.all(
    tokens.map(async (token) => {
      const v: Viewer = { heard: 0, seen: 0, ctl: new AbortController() };
      const res = await fetch(url + LIVE_STREAM_PATH, {
        headers: { authorization: `Bearer ${token}` },
        signal: v.ctl.signal,
      });
      if (res.status !== 200 || !res.body) throw new Error(`stream: HTTP ${res.status}`);
      const parser = createParser({
        onEvent: (e) => {
          if (e.event !== 'opening' || (JSON.parse(e.data) as { sectionId?: string }).sectionId !== sectionId) return;
          v.heard = performance.now();
          if (REREAD) {
            void fetch(`${url}/ks/trade/opening/v1/hall?sectionId=${sectionId}`, {
              headers: { authorization: `Bearer ${token}` },
            })
              .then((r) => r.json())
              .then(() => {
                v.seen = performance.now();
              });
          }
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
      out.push(v);
    }),
  );
  return out;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: +pct(s, 50).toFixed(1),
    p95: +pct(s, 95).toFixed(1),
    p99: +pct(s, 99).toFixed(1),
    max: +(s[s.length - 1] ?? 0).toFixed(1),
  };
};

async function main() {
  const dbName = `ks_bench_opening_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const dbUrl = u.toString();
  const env = { DATABASE_URL: dbUrl, RATE_LIMIT_PER_MINUTE: '1000000', LOGIN_RATE_LIMIT_PER_MINUTE: '100000' };
  const a = await startServer({
    port: PORT,
    env,
    nodeArgs: process.env.SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean),
  });
  let b: Awaited<ReturnType<typeof startServer>> | null = null;
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    // the demo section that has not opened yet, its agent, a bid key to hang the extra bids on
    const { rows: sec } = await db.query(
      `select section_id from bid_files where status = 'sealed'
         and section_id not in (select section_id from bid_openings)
       group by section_id having count(*) = 3 limit 1`,
    );
    const sectionId = sec[0].section_id as string;
    const { rows: host } = await db.query(`select id from users where account = 'agent'`);
    const { rows: key } = await db.query(`select id, user_id from bid_keys limit 1`);
    const names = Array.from({ length: BIDS }, (_, k) => `山西压测建筑工程第${k + 1}有限公司`);
    const { rows: ents } = await db.query(
      `insert into enterprises (name, credit_code, enterprise_type)
       select n, '9114' || lpad(i::text, 14, '0'), '施工企业' from unnest($1::text[]) with ordinality as x(n, i)
       returning id`,
      [names],
    );
    const zero = '0'.repeat(64);
    await db.query(
      `insert into bid_files (section_id, enterprise_id, uploader_id, key_id, file_name, plain_size, cipher_size,
         chunk_count, wrapped_key, storage_key, storage_ref, status, cipher_sha256, plain_sha256, expires_at, sealed_at)
       select $1, e, $2, $3, '投标文件.pdf', 100, 116, 1, 'x', 'bench-' || e, '', 'sealed', $4, $4,
         now() + interval '1 day', now()
       from unnest($5::uuid[]) e`,
      [sectionId, key[0].user_id, key[0].id, zero, ents.map((r) => r.id)],
    );
    // opened, decrypted, drawn: every bid waits to be read
    const seed = randomBytes(32).toString('hex');
    await db.query(
      `insert into bid_openings (section_id, status, host_id, started_at, decrypt_minutes, decrypt_deadline, seed,
         seed_commitment, drawn_at)
       values ($1, 'reading', $2, now(), 30, now() + interval '30 minutes', $3, $4, now())`,
      [sectionId, host[0].id, seed, createHash('sha256').update(seed).digest('hex')],
    );
    await db.query(
      `insert into bid_opening_bids (bid_id, section_id, enterprise_id, status, decrypted_at, plain_storage_key, price,
         duration_days, quality, manager, read_order)
       select id, section_id, enterprise_id, 'decrypted', now(), 'bench', 15000000 + row_number() over () * 10000,
         365, '合格', '张伟', row_number() over (order by id)
       from bid_files where section_id = $1 and status = 'sealed'`,
      [sectionId],
    );
    const { rows: total } = await db.query(`select count(*)::int n from bid_opening_bids where section_id = $1`, [
      sectionId,
    ]);

    // the viewers: supervisors with a session each
    const { rows: role } = await db.query(`select id from roles where code = 'supervisor'`);
    const { rows: hash } = await db.query(`select password_hash from users where account = 'supervisor'`);
    const accounts = Array.from({ length: VIEWERS }, (_, k) => `bench_v_${k}`);
    const { rows: ids } = await db.query(
      `insert into users (account, user_name, login_role_type, password_hash)
       select a, '压测监督' || a, 'U', $2 from unnest($1::text[]) a returning id`,
      [accounts, hash[0].password_hash],
    );
    await db.query(`insert into user_roles (user_id, role_id) select unnest($1::uuid[]), $2`, [
      ids.map((r) => r.id),
      role[0].id,
    ]);
    const tokens = ids.map(() => randomBytes(32).toString('base64url'));
    await db.query(
      `insert into sessions (token_hash, user_id, expires_at)
       select h, u, now() + interval '1 day' from unnest($1::text[], $2::uuid[]) as x(h, u)`,
      [tokens.map((t) => createHash('sha256').update(t).digest('hex')), ids.map((r) => r.id)],
    );
    const hostToken = await signIn(a.url, 'agent', 'Demo@2026', 'U');

    b = await startServer({ port: PORT + 1, env: { ...env, SEED_DEMO: 'false' } });
    const half = Math.ceil(VIEWERS / 2);
    const viewers = [
      ...(await openStreams(a.url, tokens.slice(0, half), sectionId)),
      ...(await openStreams(b.url, tokens.slice(half), sectionId)),
    ];
    await new Promise((s) => setTimeout(s, 3000));

    const onA: number[] = [];
    const onB: number[] = [];
    const seen: number[] = [];
    let missed = 0;
    const readings = Math.min(BIDS, Number(total[0].n));
    for (let r = 0; r < readings; r++) {
      for (const v of viewers) {
        v.heard = 0;
        v.seen = 0;
      }
      const t0 = performance.now();
      const res = await fetch(`${a.url}/ks/trade/opening/v1/read`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hostToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sectionId }),
      });
      if (res.status !== 200) throw new Error(`read ${r + 1}: HTTP ${res.status} ${await res.text()}`);
      const deadline = performance.now() + 10_000;
      while (viewers.some((v) => v.heard === 0 || (REREAD && v.seen === 0)) && performance.now() < deadline) {
        await new Promise((s) => setTimeout(s, 5));
      }
      viewers.forEach((v, i) => {
        if (v.heard === 0) missed++;
        else (i < half ? onA : onB).push(v.heard - t0);
        if (REREAD && v.seen) seen.push(v.seen - t0);
      });
      await new Promise((s) => setTimeout(s, 200));
    }
    for (const v of viewers) v.ctl.abort();
    const result = {
      at: new Date().toISOString(),
      machine: machine(),
      viewers: VIEWERS,
      readings,
      missed,
      eventOnA: stats(onA),
      eventOnB: stats(onB),
      eventAll: stats([...onA, ...onB]),
      ...(REREAD ? { hallReread: stats(seen) } : {}),
    };
    console.info(JSON.stringify(result, null, 2));
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    writeFileSync(
      path.join(root, `bench/results/opening${REREAD ? '-reread' : ''}.json`),
      `${JSON.stringify(result, null, 2)}\n`,
    );
    if (result.eventAll.p99 >= 500) process.exitCode = 1;
  } finally {
    await db.end();
    await b?.stop();
    await a.stop();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
