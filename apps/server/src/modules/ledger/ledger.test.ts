import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { ledgerEntries, ledgerHead } from '../../db/schema';
import { createTestApp, createTestDatabase, json } from '../../test/harness';
import { anchorDay, appendEvent, canonicalJson, entryHash, GENESIS, verifyLedger } from './ledger';
import { anchorYesterday } from './ledger.routes';

/**
 * The tamper-evident log (issue 17, Integrity): a gapless chain in commit order, refused changes, and verification that
 * names the entry an edit, a deletion or a rewrite broke.
 */
let d: Database;
const db = () => d.db;
const SECTION = '0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8';
const actor = { id: null, name: '系统' };
const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 1, minute, 0, 123));
const append = (kind: string, payload: Record<string, unknown>, minute = 0) =>
  db().transaction((tx) => appendEvent(tx, { kind, sectionId: SECTION, actor, payload, at: at(minute) }));
/** What an intruder with the database's owner rights does: the trigger off, a change, the trigger on. */
async function bypass(statement: ReturnType<typeof sql>) {
  await db().execute(sql`alter table ledger_entries disable trigger ledger_entries_append_only`);
  try {
    await db().execute(statement);
  } finally {
    await db().execute(sql`alter table ledger_entries enable trigger ledger_entries_append_only`);
  }
}

beforeAll(async () => {
  d = await createTestDatabase();
}, 60_000);
afterAll(async () => d?.close());

describe('canonical JSON', () => {
  it('sorts keys at every level and drops undefined, so equal data hashes equal', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'x', null], c: true }, u: undefined })).toBe(
      '{"a":{"c":true,"d":[1,"x",null]},"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson({ t: new Date('2026-11-20T01:00:00.000Z') })).toBe('{"t":"2026-11-20T01:00:00.000Z"}');
    expect(() => canonicalJson({ x: Number.NaN })).toThrow();
  });
});

describe('the chain', () => {
  it('starts empty and intact, then links each entry to the one before', async () => {
    expect(await verifyLedger(db())).toMatchObject({ intact: true, checked: 0, headSeq: 0, headHash: GENESIS });
    const a = await append('opening.started', { section: 'BD-01', bids: 3 });
    const b = await append('bid.decrypted', { bidder: '示例建设工程有限公司', price: 38_125_000.5 }, 1);
    expect([a.seq, b.seq]).toEqual([1, 2]);
    const rows = await db().select().from(ledgerEntries).orderBy(ledgerEntries.seq);
    expect(rows[0]!.prevHash).toBe(GENESIS);
    expect(rows[1]!.prevHash).toBe(rows[0]!.hash);
    expect(rows[1]!.payload).toBe('{"bidder":"示例建设工程有限公司","price":38125000.5}');
    expect(entryHash({ ...rows[1]!, seq: 2 })).toBe(b.hash);
    expect(await verifyLedger(db())).toMatchObject({ intact: true, checked: 2, headSeq: 2, headHash: b.hash });
  });

  it('numbers 20 concurrent appends without a gap, in commit order', async () => {
    const before = (await verifyLedger(db())).headSeq;
    const done = await Promise.all(Array.from({ length: 20 }, (_, i) => append('score.submitted', { i }, 2)));
    expect(done.map((x) => x.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => before + i + 1));
    expect(await verifyLedger(db(), 7)).toMatchObject({ intact: true, checked: before + 20 });
  });

  it('takes an entry back with the change it records when that rolls back', async () => {
    const before = (await verifyLedger(db())).headSeq;
    await expect(
      db().transaction(async (tx) => {
        await appendEvent(tx, { kind: 'score.reopened', sectionId: SECTION, actor, payload: {}, at: at(3) });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await verifyLedger(db())).toMatchObject({ intact: true, headSeq: before });
  });

  it('refuses UPDATE, DELETE and TRUNCATE of entries', async () => {
    await expect(db().execute(sql`update ledger_entries set payload = '{}' where seq = 1`)).rejects.toThrow();
    await expect(db().execute(sql`delete from ledger_entries where seq = 1`)).rejects.toThrow();
    await expect(db().execute(sql`truncate ledger_entries`)).rejects.toThrow();
    expect((await verifyLedger(db())).intact).toBe(true);
  });
});

describe('verification names what was broken', () => {
  it('an edited payload at that entry', async () => {
    const [row] = await db().select().from(ledgerEntries).where(eq(ledgerEntries.seq, 2));
    await bypass(
      sql`update ledger_entries set payload = ${row!.payload.replace('38125000.5', '36125000.5')} where seq = 2`,
    );
    const v = await verifyLedger(db());
    expect(v).toMatchObject({ intact: false, checked: 1, broken: { seq: 2, reason: 'hash' } });
    expect(v.broken!.message).toBe('第 2 条记录的内容与其哈希不符（记录被修改）');
    await bypass(sql`update ledger_entries set payload = ${row!.payload} where seq = 2`);
    expect((await verifyLedger(db())).intact).toBe(true);
  });

  it('an edited time, actor or kind at that entry', async () => {
    for (const [column, value] of [
      ['at', '2026-11-20T01:05:00Z'],
      ['actor_name', '他人'],
      ['kind', 'bid.withdrawn'],
    ] as const) {
      const [row] = await db()
        .execute<{ v: string }>(sql`select ${sql.raw(column)}::text as v from ledger_entries where seq = 5`)
        .then((r) => (Array.isArray(r) ? r : ((r as { rows: { v: string }[] }).rows ?? [])));
      await bypass(sql`update ledger_entries set ${sql.raw(column)} = ${value} where seq = 5`);
      expect((await verifyLedger(db())).broken, column).toMatchObject({ seq: 5, reason: 'hash' });
      await bypass(sql`update ledger_entries set ${sql.raw(column)} = ${row!.v} where seq = 5`);
    }
    expect((await verifyLedger(db())).intact).toBe(true);
  });

  it('a deleted entry, and one rehashed to hide an edit (its successor no longer links)', async () => {
    const [row] = await db().select().from(ledgerEntries).where(eq(ledgerEntries.seq, 4));
    await bypass(sql`delete from ledger_entries where seq = 4`);
    expect((await verifyLedger(db())).broken).toMatchObject({ seq: 4, reason: 'missing' });
    await db().insert(ledgerEntries).values(row!);
    expect((await verifyLedger(db())).intact).toBe(true);
    // the payload changed and the entry's own hash recomputed: the next entry still names the old one
    const payload = '{"i":99}';
    const hash = entryHash({ ...row!, seq: 4, payload });
    await bypass(sql`update ledger_entries set payload = ${payload}, hash = ${hash} where seq = 4`);
    expect((await verifyLedger(db())).broken).toMatchObject({ seq: 5, reason: 'prev' });
    await bypass(sql`update ledger_entries set payload = ${row!.payload}, hash = ${row!.hash} where seq = 4`);
    expect((await verifyLedger(db())).intact).toBe(true);
  });

  it('a chain rewritten from an entry on: it verifies by itself, but no longer ends in the published anchor', async () => {
    const day = '2026-11-20';
    const anchor = await anchorDay(db(), day, new Date('2026-11-20T16:00:00Z'), new Date('2026-11-20T16:05:00Z'));
    const head = (await verifyLedger(db())).headSeq;
    expect(anchor).toMatchObject({ day, seq: head });
    // published once: a second run keeps it
    expect((await anchorDay(db(), day, new Date('2026-11-21T16:00:00Z'), new Date())).hash).toBe(anchor.hash);
    // rewrite every entry from 3 on, recomputing each hash and link, and the head
    const rows = await db().select().from(ledgerEntries).orderBy(ledgerEntries.seq);
    let prev = rows[1]!.hash;
    await db().execute(sql`alter table ledger_entries disable trigger ledger_entries_append_only`);
    try {
      for (const r of rows.slice(2)) {
        const seq = Number(r.seq);
        const payload = seq === 3 ? '{"i":-1}' : r.payload;
        const hash = entryHash({ ...r, seq, prevHash: prev, payload });
        await db().execute(
          sql`update ledger_entries set payload = ${payload}, prev_hash = ${prev}, hash = ${hash} where seq = ${seq}`,
        );
        prev = hash;
      }
      await db().update(ledgerHead).set({ hash: prev }).where(eq(ledgerHead.id, 1));
    } finally {
      await db().execute(sql`alter table ledger_entries enable trigger ledger_entries_append_only`);
    }
    const v = await verifyLedger(db());
    expect(v.broken).toMatchObject({ seq: head, reason: 'anchor' });
    expect(v.broken!.message).toBe(`2026-11-20 公布的锚点（第 ${head} 条）与日志不符（日志被整体改写）`);
  });
});

describe('the public API', () => {
  it('verifies and lists the anchors without sign-in; the process publishes yesterday’s anchor once', async () => {
    const t = await createTestApp({ seed: false });
    try {
      const tdb = t.database.db;
      await tdb.transaction((tx) =>
        appendEvent(tx, { kind: 'opening.started', sectionId: SECTION, actor, payload: { bids: 3 }, at: t.clock.now }),
      );
      const v = await t.app.inject({ method: 'GET', url: '/ks/bid/v1/ledger/verify' });
      expect(v.statusCode).toBe(200);
      expect(json<{ data: Record<string, unknown> }>(v).data).toMatchObject({
        intact: true,
        checked: 1,
        headSeq: 1,
        broken: null,
      });
      const deps = { db: tdb, now: () => t.clock.now, tz: 'Asia/Shanghai' };
      // yesterday ended before the entry: its anchor is the genesis (published when the app started, and only once)
      const first = await anchorYesterday(deps);
      expect(first).toMatchObject({ seq: 0, hash: GENESIS });
      t.clock.advance(86_400_000);
      const second = await anchorYesterday(deps);
      expect(second).toMatchObject({ seq: 1 });
      const list = await t.app.inject({ method: 'GET', url: '/ks/bid/v1/ledger/anchors?limit=5' });
      const records = json<{ data: { records: { day: string; seq: number }[] } }>(list).data.records;
      expect(records.map((r) => r.seq)).toEqual([1, 0]);
      expect(records[0]!.day > records[1]!.day).toBe(true);
      const bad = await t.app.inject({ method: 'GET', url: '/ks/bid/v1/ledger/anchors?limit=0' });
      expect(bad.statusCode).toBe(400);
    } finally {
      await t.close();
    }
  }, 60_000);
});
