import { createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  BID_CIPHER_CHUNK,
  BID_SUMMARY_IV,
  BID_TAG_BYTES,
  type BidSummary,
  bidSegmentIv,
  bidSummarySchema,
  drawK,
  OPENING_MIN_BIDS,
  OPENING_MSG,
  type OpeningHall,
  type OpeningRespond,
  type OpeningSection,
  type OpeningStatus,
} from '@ks/contracts';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client';
import {
  bidFiles,
  bidOpeningBids,
  bidOpeningResponses,
  bidOpeningSignins,
  bidOpenings,
  enterprises,
  ledgerEntries,
  tenderSections,
  users,
} from '../../db/schema';
import { isUniqueViolation } from '../../db/sql';
import { createCache } from '../../platform/cache';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { publishEvent } from '../../platform/live';
import { writeOpLog } from '../../platform/oplog';
import { newStorageKey, type Storage } from '../../platform/storage';
import type { EngineCaller } from '../engine/record-access';
import { appendEvent, ledgerActor, sectionEntries } from '../ledger/ledger';
import { projects } from '../tender/project';
import { type SectionRow, sectionOr404 } from '../tender/section.repo';
import { sectionRowForReader, tenderSettings } from '../tender/tender.service';
import { eventText } from './opening.events';

/**
 * The remote opening hall (不见面开标, issue 17). The section opens at its deadline when at least OPENING_MIN_BIDS bids
 * are sealed; bidders sign in and hand over the file keys they unwrapped in their browsers within the decryption
 * time; the server decrypts the stored ciphertext with each key and checks both hashes of the sealing receipt; the
 * reading order comes from a seed committed at the start; the bids are read out one by one; bidders confirm or object
 * and the host answers; the host closes. Every step is an entry of the tamper-evident log and a live `opening` event.
 */
export interface OpeningDeps {
  db: Db;
  storage: Storage;
  now: () => Date;
}

export type OpeningCaller = EngineCaller;
type Role = 'host' | 'bidder' | 'viewer';

const GL_NAME = '开标大厅';

type OpeningRow = typeof bidOpenings.$inferSelect;

interface Place {
  section: SectionRow;
  role: Role;
  projectName: string;
}

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/** The enterprise's bid in the section: its sealed file, or the file the opening took. */
async function enterpriseBid(q: DbOrTx, sectionId: string, enterpriseId: string) {
  const [taken] = await q
    .select({ b: bidFiles })
    .from(bidOpeningBids)
    .innerJoin(bidFiles, eq(bidFiles.id, bidOpeningBids.bidId))
    .where(and(eq(bidOpeningBids.sectionId, sectionId), eq(bidOpeningBids.enterpriseId, enterpriseId)));
  if (taken) return taken.b;
  const [sealed] = await q
    .select()
    .from(bidFiles)
    .where(
      and(eq(bidFiles.sectionId, sectionId), eq(bidFiles.enterpriseId, enterpriseId), eq(bidFiles.status, 'sealed')),
    );
  return sealed ?? null;
}

/**
 * Who the caller is in the section's hall: its host (the project's tenderee or agency, or an administrator), a bidder
 * (an enterprise with a sealed bid), or a viewer (anyone else who may read the project: the centre, its reviewers,
 * supervisors); else the section is not found.
 */
async function placeOf(db: Db, c: OpeningCaller, sectionId: string): Promise<Place> {
  if (!isUuid(sectionId)) throw notFound(OPENING_MSG.sectionMissing);
  let reader: Awaited<ReturnType<typeof sectionRowForReader>> | null = null;
  try {
    reader = await sectionRowForReader(db, c, sectionId);
  } catch (e) {
    if (!(e instanceof AppError) || (e.httpStatus !== 404 && e.httpStatus !== 403)) throw e;
  }
  if (reader && (reader.side || c.loginRoleType === 'M')) {
    return { section: reader.row, role: 'host', projectName: reader.projectName };
  }
  /** the section and its project's name where the caller may not read the project as such */
  const unread = async (role: Role): Promise<Place> => {
    const section = await sectionOr404(db, sectionId, OPENING_MSG.sectionMissing);
    return { section, role, projectName: String((await projects.get(db, section.projectId))?.values.xmmc ?? '') };
  };
  if (!reader && c.loginRoleType === 'M') return unread('host');
  if (c.loginRoleType === 'U' && c.enterpriseId && (await enterpriseBid(db, sectionId, c.enterpriseId))) {
    return reader ? { section: reader.row, role: 'bidder', projectName: reader.projectName } : unread('bidder');
  }
  if (reader) return { section: reader.row, role: 'viewer', projectName: reader.projectName };
  throw notFound(OPENING_MSG.sectionMissing);
}

const openingOf = async (q: DbOrTx, sectionId: string, lock = false) => {
  const base = q.select().from(bidOpenings).where(eq(bidOpenings.sectionId, sectionId));
  const [o] = lock ? await base.for('update') : await base;
  return o ?? null;
};

const statusOf = (o: OpeningRow | null): OpeningStatus => (o ? (o.status as OpeningStatus) : 'waiting');

async function enterpriseNames(q: DbOrTx, ids: string[]) {
  const out = new Map<string, string>();
  if (!ids.length) return out;
  const rows = await q
    .select({ id: enterprises.id, name: enterprises.name })
    .from(enterprises)
    .where(inArray(enterprises.id, [...new Set(ids)]));
  for (const r of rows) out.set(r.id, r.name);
  return out;
}

async function signinsOf(q: DbOrTx, sectionId: string) {
  return q.select().from(bidOpeningSignins).where(eq(bidOpeningSignins.sectionId, sectionId));
}

/** Announce a change of the hall to the tabs in it (they re-read the hall, which checks access). */
const announce = (tx: Tx, sectionId: string) => publishEvent(tx, { everyone: true }, 'opening', { sectionId });

const money = (v: number) =>
  `¥${v.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true })}`;

/** The hall as the caller sees it. */
export async function hall(deps: OpeningDeps, c: OpeningCaller, sectionId: string): Promise<OpeningHall> {
  const place = await placeOf(deps.db, c, sectionId);
  return hallOf(deps, c, place);
}

/**
 * What every caller of a section's hall sees alike: the opening, sign-ins, bids and readings, responses and the log.
 * Each change of the hall is an entry of the section's log, so the head of that log versions it: a hall read once per
 * change is shared by every tab that re-reads on the change's live event (500 viewers re-read together, issue 17),
 * the first read of a version computing it for the others. A read that sees a newer head reads again.
 */
interface PublicHall {
  o: OpeningRow | null;
  status: OpeningStatus;
  started: boolean;
  signins: (typeof bidOpeningSignins.$inferSelect)[];
  signed: Set<string>;
  rows: (typeof bidOpeningBids.$inferSelect)[];
  names: Map<string, string>;
  bids: OpeningHall['bids'];
  events: OpeningHall['events'];
  openObjections: boolean;
  /** the enterprises that confirmed the reading */
  confirmedBy: Set<string>;
}

const publicHalls = createCache<string, { version: string; hall: Promise<PublicHall> }>('opening-public-hall', {
  max: 200,
});

async function hallVersion(db: Db, sectionId: string): Promise<string> {
  const [r] = await db
    .select({ head: sql<string | null>`max(${ledgerEntries.seq})::text` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.sectionId, sectionId));
  return r?.head ?? '0';
}

async function publicHallOf(db: Db, sectionId: string): Promise<PublicHall> {
  const version = await hallVersion(db, sectionId);
  const hit = publicHalls.get(sectionId);
  if (hit && hit.version === version) return hit.hall;
  const hall = readPublicHall(db, sectionId);
  publicHalls.set(sectionId, { version, hall });
  hall.catch(() => {
    if (publicHalls.get(sectionId)?.hall === hall) publicHalls.delete(sectionId);
  });
  return hall;
}

async function readPublicHall(db: Db, sectionId: string): Promise<PublicHall> {
  const o = await openingOf(db, sectionId);
  const status = statusOf(o);
  const started = Boolean(o && o.status !== 'failed');
  const signins = await signinsOf(db, sectionId);
  const signed = new Set(signins.map((s) => s.enterpriseId));

  const rows = started
    ? await db
        .select()
        .from(bidOpeningBids)
        .where(eq(bidOpeningBids.sectionId, sectionId))
        .orderBy(sql`${bidOpeningBids.readOrder} nulls last`, asc(bidOpeningBids.decryptedAt))
    : [];
  const responses = started
    ? await db
        .select({ r: bidOpeningResponses, userName: users.userName })
        .from(bidOpeningResponses)
        .innerJoin(users, eq(users.id, bidOpeningResponses.userId))
        .where(eq(bidOpeningResponses.sectionId, sectionId))
        .orderBy(asc(bidOpeningResponses.at))
    : [];
  const answerers = await userNames(
    db,
    responses.map((r) => r.r.answeredBy).filter((x): x is string => Boolean(x)),
  );
  const names = await enterpriseNames(
    db,
    rows.map((r) => r.enterpriseId),
  );

  const bids = rows.map((b) => ({
    bidId: b.bidId,
    enterpriseId: b.enterpriseId,
    enterpriseName: names.get(b.enterpriseId) ?? '',
    status: b.status as 'pending' | 'decrypted' | 'late',
    decryptedAt: b.decryptedAt?.toISOString() ?? null,
    reason: b.reason,
    signedIn: signed.has(b.enterpriseId),
    order: b.readOrder,
    reading:
      b.readAt && b.price !== null
        ? {
            price: Number(b.price),
            durationDays: b.durationDays!,
            quality: b.quality!,
            manager: b.manager!,
            readAt: b.readAt.toISOString(),
          }
        : null,
    responses: responses
      .filter((r) => r.r.enterpriseId === b.enterpriseId)
      .map((r) => ({
        id: r.r.id,
        kind: r.r.kind as 'confirm' | 'objection',
        text: r.r.text,
        at: r.r.at.toISOString(),
        userName: r.userName,
        answer: r.r.answer,
        answeredAt: r.r.answeredAt?.toISOString() ?? null,
        answeredBy: r.r.answeredBy ? (answerers.get(r.r.answeredBy) ?? null) : null,
      })),
  }));

  const entries = (await sectionEntries(db, sectionId)).filter(
    (e) => e.kind.startsWith('opening.') || e.kind.startsWith('bid.'),
  );
  const events = entries.map((e) => {
    // before the opening, who bid and who signed in stays secret
    const secret = !started && (e.kind.startsWith('bid.') || e.kind === 'opening.signin');
    return {
      seq: Number(e.seq),
      at: e.at.toISOString(),
      kind: e.kind,
      actorName: secret ? '投标人' : e.actorName,
      text: eventText(e.kind, JSON.parse(e.payload) as Record<string, unknown>, { secret, money }),
      hash: e.hash,
    };
  });
  return {
    o,
    status,
    started,
    signins,
    signed,
    rows,
    names,
    bids,
    events,
    openObjections: responses.some((r) => r.r.kind === 'objection' && !r.r.answer),
    confirmedBy: new Set(responses.filter((r) => r.r.kind === 'confirm').map((r) => r.r.enterpriseId)),
  };
}

async function hallOf(deps: OpeningDeps, c: OpeningCaller, place: Place): Promise<OpeningHall> {
  const { db } = deps;
  const { section, role } = place;
  const now = deps.now();
  const { o, status, signins, signed, rows, names, bids, events, openObjections, confirmedBy } = await publicHallOf(
    db,
    section.id,
  );

  let mine: OpeningHall['mine'] = null;
  if (role === 'bidder' && c.enterpriseId) {
    const b = await enterpriseBid(db, section.id, c.enterpriseId);
    const own = rows.find((r) => r.enterpriseId === c.enterpriseId);
    mine = {
      enterpriseName:
        names.get(c.enterpriseId) ?? (await enterpriseNames(db, [c.enterpriseId])).get(c.enterpriseId) ?? '',
      signedIn: signed.has(c.enterpriseId),
      bid: b
        ? {
            id: b.id,
            fileName: b.fileName,
            keyId: b.keyId,
            wrappedKey: b.wrappedKey,
            summary: b.summaryCipher,
            plainSha256: b.plainSha256 ?? '',
            cipherSha256: b.cipherSha256 ?? '',
          }
        : null,
      status: (own?.status as 'pending' | 'decrypted' | 'late' | undefined) ?? null,
    };
  }

  const due = now.getTime() >= section.bidDeadline.getTime();
  const beforeDecryptEnd = o?.decryptDeadline ? now.getTime() < o.decryptDeadline.getTime() : false;
  const confirmed = c.enterpriseId ? confirmedBy.has(c.enterpriseId) : false;
  const isHost = role === 'host';
  const isBidder = role === 'bidder' && mine !== null;
  return {
    section: {
      id: section.id,
      code: section.code,
      name: section.name,
      projectName: place.projectName,
      bidDeadline: section.bidDeadline.toISOString(),
    },
    status,
    now: now.toISOString(),
    role,
    due,
    startedAt: o?.startedAt.toISOString() ?? null,
    decryptMinutes: o?.decryptMinutes ?? null,
    decryptDeadline: o?.decryptDeadline?.toISOString() ?? null,
    closedAt: o?.closedAt?.toISOString() ?? null,
    failureReason: o?.failureReason ?? null,
    seedCommitment: o?.seedCommitment ?? null,
    seed: o?.drawnAt ? o.seed : null,
    benchmarkK:
      o?.kValue != null && Array.isArray(o.kCandidates)
        ? { candidates: o.kCandidates as number[], value: Number(o.kValue) }
        : null,
    signedInCount: signins.length,
    bids,
    mine,
    events,
    actions: {
      signIn:
        isBidder &&
        !mine!.signedIn &&
        mine!.bid !== null &&
        (status === 'waiting' || (status === 'decrypting' && beforeDecryptEnd)),
      start: isHost && status === 'waiting' && due,
      decrypt: isBidder && mine!.signedIn && status === 'decrypting' && mine!.status === 'pending' && beforeDecryptEnd,
      draw: isHost && status === 'decrypting' && (!beforeDecryptEnd || rows.every((r) => r.status !== 'pending')),
      read: isHost && status === 'reading',
      respond: isBidder && status === 'confirming' && !confirmed,
      answer: isHost && status === 'confirming' && openObjections,
      close: isHost && status === 'confirming' && !openObjections,
      record: status === 'closed' || status === 'failed',
    },
  };
}

async function userNames(q: DbOrTx, ids: string[]) {
  const out = new Map<string, string>();
  if (!ids.length) return out;
  const rows = await q
    .select({ id: users.id, name: users.userName })
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  for (const r of rows) out.set(r.id, r.name);
  return out;
}

/** The sections whose hall the caller may enter, deadline nearest today first (a year around it). */
export async function sectionList(deps: OpeningDeps, c: OpeningCaller): Promise<OpeningSection[]> {
  const now = deps.now().getTime();
  const year = 365 * 86_400_000;
  const candidates = await deps.db
    .select()
    .from(tenderSections)
    .where(sql`${tenderSections.bidDeadline} between ${new Date(now - year)} and ${new Date(now + year)}`)
    .orderBy(sql`abs(extract(epoch from ${tenderSections.bidDeadline} - ${new Date(now)}))`)
    .limit(300);
  const out: OpeningSection[] = [];
  for (const s of candidates) {
    let place: Place;
    try {
      place = await placeOf(deps.db, c, s.id);
    } catch (e) {
      if (e instanceof AppError && e.httpStatus === 404) continue;
      throw e;
    }
    const o = await openingOf(deps.db, s.id);
    out.push({
      id: s.id,
      code: s.code,
      name: s.name,
      projectName: place.projectName,
      bidDeadline: s.bidDeadline.toISOString(),
      status: statusOf(o),
      role: place.role,
    });
  }
  return out;
}

function requireHost(place: Place) {
  if (place.role !== 'host') throw forbidden(OPENING_MSG.notHost);
}

function requireBidder(place: Place, c: OpeningCaller): asserts c is OpeningCaller & { enterpriseId: string } {
  if (place.role !== 'bidder' || !c.enterpriseId) throw forbidden(OPENING_MSG.notBidder);
}

/** 签到: a bidder of a sealed bid, until the decryption time ends. */
export async function signIn(deps: OpeningDeps, c: OpeningCaller, sectionId: string): Promise<OpeningHall> {
  const place = await placeOf(deps.db, c, sectionId);
  requireBidder(place, c);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const o = await openingOf(tx, sectionId, true);
    const st = statusOf(o);
    if (!(st === 'waiting' || (st === 'decrypting' && now.getTime() < o!.decryptDeadline!.getTime()))) {
      throw conflict(OPENING_MSG.signinClosed);
    }
    const inserted = await tx
      .insert(bidOpeningSignins)
      .values({ sectionId, enterpriseId: c.enterpriseId, userId: c.id, signedAt: now })
      .onConflictDoNothing()
      .returning();
    if (!inserted.length) return;
    const [e] = await enterpriseNames(tx, [c.enterpriseId]).then((m) => [...m.values()]);
    await appendEvent(tx, {
      kind: 'opening.signin',
      sectionId,
      actor: ledgerActor(c.actor),
      payload: { enterpriseId: c.enterpriseId, enterpriseName: e ?? '' },
      at: now,
    });
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: sectionId,
      logbook: `投标人签到（标段 ${place.section.code} ${place.section.name}）`,
    });
    await announce(tx, sectionId);
  });
  return hallOf(deps, c, place);
}

/**
 * 开标: the host, at or after the deadline. Fewer than OPENING_MIN_BIDS sealed bids: the section fails (re-tender).
 * Else the decryption time starts and the order seed's SHA-256 is committed in the log.
 */
export async function start(
  deps: OpeningDeps,
  c: OpeningCaller,
  input: { sectionId: string; decryptMinutes: number },
): Promise<OpeningHall> {
  const place = await placeOf(deps.db, c, input.sectionId);
  requireHost(place);
  const now = deps.now();
  if (now.getTime() < place.section.bidDeadline.getTime()) throw conflict(OPENING_MSG.beforeDeadline);
  const { section } = place;
  await deps.db.transaction(async (tx) => {
    await sectionOr404(tx, section.id, OPENING_MSG.sectionMissing, 'update');
    if (await openingOf(tx, section.id)) throw conflict(OPENING_MSG.alreadyStarted);
    const sealed = await tx
      .select()
      .from(bidFiles)
      .where(and(eq(bidFiles.sectionId, section.id), eq(bidFiles.status, 'sealed')))
      .orderBy(asc(bidFiles.sealedAt));
    const actor = ledgerActor(c.actor);
    if (sealed.length < OPENING_MIN_BIDS) {
      const reason = `递交投标文件的投标人只有 ${sealed.length} 家，少于 ${OPENING_MIN_BIDS} 家，不得开标，须重新招标`;
      await tx
        .insert(bidOpenings)
        .values({ sectionId: section.id, status: 'failed', hostId: c.id, startedAt: now, failureReason: reason });
      await appendEvent(tx, {
        kind: 'opening.failed',
        sectionId: section.id,
        actor,
        payload: { sealedCount: sealed.length, minimum: OPENING_MIN_BIDS, reason },
        at: now,
      });
      await writeOpLog(tx, c.actor, {
        glName: GL_NAME,
        recordId: section.id,
        logbook: `开标：标段 ${section.code} ${section.name} 流标（${reason}）`,
      });
      await announce(tx, section.id);
      return;
    }
    const seed = randomBytes(32).toString('hex');
    const seedCommitment = createHash('sha256').update(seed).digest('hex');
    const decryptDeadline = new Date(now.getTime() + input.decryptMinutes * 60_000);
    await tx.insert(bidOpenings).values({
      sectionId: section.id,
      status: 'decrypting',
      hostId: c.id,
      startedAt: now,
      decryptMinutes: input.decryptMinutes,
      decryptDeadline,
      seed,
      seedCommitment,
    });
    await tx
      .insert(bidOpeningBids)
      .values(sealed.map((b) => ({ bidId: b.id, sectionId: section.id, enterpriseId: b.enterpriseId })));
    const names = await enterpriseNames(
      tx,
      sealed.map((b) => b.enterpriseId),
    );
    await appendEvent(tx, {
      kind: 'opening.started',
      sectionId: section.id,
      actor,
      payload: {
        decryptMinutes: input.decryptMinutes,
        decryptDeadline: decryptDeadline.toISOString(),
        seedCommitment,
        bids: sealed.map((b) => ({
          bidId: b.id,
          enterpriseId: b.enterpriseId,
          enterpriseName: names.get(b.enterpriseId) ?? '',
          cipherSha256: b.cipherSha256,
          plainSha256: b.plainSha256,
        })),
      },
      at: now,
    });
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: section.id,
      logbook: `开标：标段 ${section.code} ${section.name}，${sealed.length} 份投标文件，解密时限 ${input.decryptMinutes} 分钟`,
    });
    await announce(tx, section.id);
  });
  return hallOf(deps, c, place);
}

/** Decrypt a ciphertext stream of `count` segments under `key`, hashing both sides; a bad tag throws. */
async function* decryptSegments(
  src: AsyncIterable<Buffer>,
  key: Buffer,
  count: number,
  hashes: { cipher: ReturnType<typeof createHash>; plain: ReturnType<typeof createHash> },
): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let have = 0;
  let index = 0;
  const segment = (buf: Buffer) => {
    hashes.cipher.update(buf);
    if (buf.length < BID_TAG_BYTES) throw new Error('segment too short');
    const d = createDecipheriv('aes-256-gcm', key, bidSegmentIv(index, index === count - 1));
    d.setAuthTag(buf.subarray(buf.length - BID_TAG_BYTES));
    const plain = Buffer.concat([d.update(buf.subarray(0, buf.length - BID_TAG_BYTES)), d.final()]);
    hashes.plain.update(plain);
    index++;
    return plain;
  };
  for await (const chunk of src) {
    pending.push(chunk);
    have += chunk.length;
    while (have >= BID_CIPHER_CHUNK && index < count - 1) {
      const all = Buffer.concat(pending);
      yield segment(all.subarray(0, BID_CIPHER_CHUNK));
      const rest = all.subarray(BID_CIPHER_CHUNK);
      pending = [rest];
      have = rest.length;
    }
  }
  yield segment(Buffer.concat(pending));
  if (index !== count) throw new Error('segment count');
}

function openSummary(cipherB64: string, key: Buffer): BidSummary | null {
  try {
    const buf = Buffer.from(cipherB64, 'base64');
    const d = createDecipheriv('aes-256-gcm', key, BID_SUMMARY_IV);
    d.setAuthTag(buf.subarray(buf.length - BID_TAG_BYTES));
    const json = Buffer.concat([d.update(buf.subarray(0, buf.length - BID_TAG_BYTES)), d.final()]).toString('utf8');
    const parsed = bidSummarySchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * A bidder hands over the file key its browser unwrapped: within the decryption time, the server decrypts the stored
 * ciphertext with it (plaintext stored for the evaluation), checks both hashes of the sealing receipt and opens the
 * 开标一览表. A late attempt is refused and recorded in the log; a wrong key changes nothing.
 */
export async function decrypt(
  deps: OpeningDeps,
  c: OpeningCaller,
  input: { bidId: string; fileKey: string },
): Promise<OpeningHall> {
  const [b] = await deps.db.select().from(bidFiles).where(eq(bidFiles.id, input.bidId));
  if (!b || c.loginRoleType !== 'U' || c.enterpriseId !== b.enterpriseId) throw notFound('投标文件不存在');
  const place = await placeOf(deps.db, c, b.sectionId);
  requireBidder(place, c);
  const now = deps.now();
  const o = await openingOf(deps.db, b.sectionId);
  if (o?.status !== 'decrypting') throw conflict(OPENING_MSG.notDecrypting);
  const [ob] = await deps.db.select().from(bidOpeningBids).where(eq(bidOpeningBids.bidId, b.id));
  if (!ob) throw conflict(OPENING_MSG.notBidder);
  if (ob.status === 'decrypted') throw conflict(OPENING_MSG.alreadyDecrypted);
  if (ob.status === 'late' || now.getTime() >= o.decryptDeadline!.getTime()) {
    await deps.db.transaction(async (tx) => {
      await appendEvent(tx, {
        kind: 'bid.decrypt_refused',
        sectionId: b.sectionId,
        actor: ledgerActor(c.actor),
        payload: {
          bidId: b.id,
          enterpriseId: b.enterpriseId,
          enterpriseName: (await enterpriseNames(tx, [b.enterpriseId])).get(b.enterpriseId) ?? '',
          decryptDeadline: o.decryptDeadline!.toISOString(),
        },
        at: now,
      });
      await writeOpLog(tx, c.actor, {
        glName: GL_NAME,
        recordId: b.id,
        logbook: `提交投标文件密钥：${b.fileName}`,
        failInfo: OPENING_MSG.decryptLate,
      });
      await announce(tx, b.sectionId);
    });
    throw forbidden(OPENING_MSG.decryptLate);
  }
  const signed = (await signinsOf(deps.db, b.sectionId)).some((s) => s.enterpriseId === c.enterpriseId);
  if (!signed) throw conflict('请先签到，再解密投标文件');

  const key = Buffer.from(input.fileKey, 'base64');
  const refuseKey = async (why: string): Promise<never> => {
    await writeOpLog(deps.db, c.actor, {
      glName: GL_NAME,
      recordId: b.id,
      logbook: `提交投标文件密钥：${b.fileName}`,
      failInfo: why,
    });
    throw badRequest(OPENING_MSG.badKey);
  };
  if (key.length !== 32) throw badRequest('文件密钥应为 32 字节');
  if (!b.summaryCipher) throw conflict('该投标文件封存时没有开标一览表，不能唱标');
  const summary = openSummary(b.summaryCipher, key);
  if (!summary) return refuseKey('开标一览表无法用该密钥解开');

  const hashes = { cipher: createHash('sha256'), plain: createHash('sha256') };
  const plainKey = newStorageKey();
  try {
    const src = (await deps.storage.get(b.storageKey)) as AsyncIterable<Buffer>;
    await deps.storage.put(
      plainKey,
      Readable.from(decryptSegments(src, key, b.chunkCount, hashes)),
      b.plainSize,
      'application/octet-stream',
    );
  } catch {
    await deps.storage.delete(plainKey).catch(() => undefined);
    return refuseKey('投标文件无法用该密钥解密');
  }
  const cipherSha256 = hashes.cipher.digest('hex');
  const plainSha256 = hashes.plain.digest('hex');
  if (cipherSha256 !== b.cipherSha256 || plainSha256 !== b.plainSha256) {
    await deps.storage.delete(plainKey).catch(() => undefined);
    return refuseKey(`哈希不符：密文 ${cipherSha256}，明文 ${plainSha256}`);
  }
  try {
    await deps.db.transaction(async (tx) => {
      const [done] = await tx
        .update(bidOpeningBids)
        .set({
          status: 'decrypted',
          decryptedAt: now,
          plainStorageKey: plainKey,
          price: summary.price,
          durationDays: summary.durationDays,
          quality: summary.quality,
          manager: summary.manager,
        })
        .where(and(eq(bidOpeningBids.bidId, b.id), eq(bidOpeningBids.status, 'pending')))
        .returning();
      if (!done) throw conflict(OPENING_MSG.alreadyDecrypted);
      await appendEvent(tx, {
        kind: 'bid.decrypted',
        sectionId: b.sectionId,
        actor: ledgerActor(c.actor),
        payload: {
          bidId: b.id,
          enterpriseId: b.enterpriseId,
          enterpriseName: (await enterpriseNames(tx, [b.enterpriseId])).get(b.enterpriseId) ?? '',
          cipherSha256,
          plainSha256,
          summarySha256: createHash('sha256').update(b.summaryCipher!).digest('hex'),
        },
        at: now,
      });
      await writeOpLog(tx, c.actor, {
        glName: GL_NAME,
        recordId: b.id,
        logbook: `解密投标文件：${b.fileName}（密文与明文 SHA-256 与封存回执一致）`,
      });
      await announce(tx, b.sectionId);
    });
  } catch (e) {
    await deps.storage.delete(plainKey).catch(() => undefined);
    throw e;
  }
  return hallOf(deps, c, place);
}

/** The digest 评审系数 K is drawn by: SHA-256(seed ‖ ":K"). */
export const benchmarkKDigest = (seed: string) => createHash('sha256').update(`${seed}:K`).digest('hex');

/** The reading order: the decrypted bids sorted by SHA-256(seed ‖ bidId) — anyone can recompute it once the seed is out. */
export function readingOrder(seed: string, bidIds: string[]): string[] {
  const key = (id: string) =>
    createHash('sha256')
      .update(seed + id)
      .digest('hex');
  return [...bidIds].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * 抽取唱标顺序: the late bids are excluded with their reason, the seed revealed, the order fixed and 评审系数 K drawn from
 * the same seed.
 */
export async function draw(deps: OpeningDeps, c: OpeningCaller, sectionId: string): Promise<OpeningHall> {
  const place = await placeOf(deps.db, c, sectionId);
  requireHost(place);
  const now = deps.now();
  const { kCandidates } = await tenderSettings(deps.db);
  await deps.db.transaction(async (tx) => {
    const o = await openingOf(tx, sectionId, true);
    if (o?.status !== 'decrypting') throw conflict(OPENING_MSG.notDecrypting);
    const bids = await tx.select().from(bidOpeningBids).where(eq(bidOpeningBids.sectionId, sectionId));
    const pending = bids.filter((b) => b.status === 'pending');
    if (pending.length && now.getTime() < o.decryptDeadline!.getTime()) throw conflict(OPENING_MSG.stillDecrypting);
    const names = await enterpriseNames(
      tx,
      bids.map((b) => b.enterpriseId),
    );
    const actor = ledgerActor(c.actor);
    const reason = `未在规定的 ${o.decryptMinutes} 分钟内解密，视为撤回投标文件，不予唱标`;
    for (const b of pending) {
      await tx.update(bidOpeningBids).set({ status: 'late', reason }).where(eq(bidOpeningBids.bidId, b.bidId));
      await appendEvent(tx, {
        kind: 'bid.excluded',
        sectionId,
        actor,
        payload: {
          bidId: b.bidId,
          enterpriseId: b.enterpriseId,
          enterpriseName: names.get(b.enterpriseId) ?? '',
          reason,
        },
        at: now,
      });
    }
    const order = readingOrder(
      o.seed!,
      bids.filter((b) => b.status === 'decrypted').map((b) => b.bidId),
    );
    for (const [i, id] of order.entries()) {
      await tx
        .update(bidOpeningBids)
        .set({ readOrder: i + 1 })
        .where(eq(bidOpeningBids.bidId, id));
    }
    // 评审系数 K from the same committed seed, among the centre's candidates
    const kValue = drawK(benchmarkKDigest(o.seed!), kCandidates);
    await tx
      .update(bidOpenings)
      .set({ status: order.length ? 'reading' : 'confirming', drawnAt: now, kCandidates, kValue: kValue.toFixed(2) })
      .where(eq(bidOpenings.sectionId, sectionId));
    await appendEvent(tx, {
      kind: 'opening.order_drawn',
      sectionId,
      actor,
      payload: {
        seed: o.seed,
        seedCommitment: o.seedCommitment,
        order: order.map((id) => {
          const b = bids.find((x) => x.bidId === id)!;
          return { bidId: id, enterpriseName: names.get(b.enterpriseId) ?? '' };
        }),
        excluded: pending.map((b) => b.bidId),
        k: { candidates: kCandidates, value: kValue, rule: 'candidates[SHA-256(seed ‖ ":K")[0..13 hex] mod n]' },
      },
      at: now,
    });
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: sectionId,
      logbook: `抽取唱标顺序（${order.length} 家${pending.length ? `，${pending.length} 家逾期未解密不予唱标` : ''}）及评审系数 K = ${kValue.toFixed(2)}`,
    });
    await announce(tx, sectionId);
  });
  return hallOf(deps, c, place);
}

/** 唱标: the next bid in the drawn order is read out to the hall. */
export async function readNext(deps: OpeningDeps, c: OpeningCaller, sectionId: string): Promise<OpeningHall> {
  const place = await placeOf(deps.db, c, sectionId);
  requireHost(place);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const o = await openingOf(tx, sectionId, true);
    if (o?.status !== 'reading') throw conflict(OPENING_MSG.notReading);
    const left = await tx
      .select()
      .from(bidOpeningBids)
      .where(
        and(
          eq(bidOpeningBids.sectionId, sectionId),
          eq(bidOpeningBids.status, 'decrypted'),
          isNull(bidOpeningBids.readAt),
        ),
      )
      .orderBy(asc(bidOpeningBids.readOrder));
    const next = left[0];
    if (!next) throw conflict(OPENING_MSG.notReading);
    await tx.update(bidOpeningBids).set({ readAt: now }).where(eq(bidOpeningBids.bidId, next.bidId));
    if (left.length === 1) {
      await tx.update(bidOpenings).set({ status: 'confirming' }).where(eq(bidOpenings.sectionId, sectionId));
    }
    const name = (await enterpriseNames(tx, [next.enterpriseId])).get(next.enterpriseId) ?? '';
    await appendEvent(tx, {
      kind: 'opening.read',
      sectionId,
      actor: ledgerActor(c.actor),
      payload: {
        bidId: next.bidId,
        order: next.readOrder,
        enterpriseName: name,
        price: Number(next.price),
        durationDays: next.durationDays,
        quality: next.quality,
        manager: next.manager,
      },
      at: now,
    });
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: sectionId,
      logbook: `唱标第 ${next.readOrder} 家：${name}，投标报价 ${money(Number(next.price))}`,
    });
    await announce(tx, sectionId);
  });
  return hallOf(deps, c, place);
}

/** A bidder confirms the reading, or objects (until it confirms). */
export async function respond(deps: OpeningDeps, c: OpeningCaller, input: OpeningRespond): Promise<OpeningHall> {
  const place = await placeOf(deps.db, c, input.sectionId);
  requireBidder(place, c);
  const now = deps.now();
  try {
    await deps.db.transaction(async (tx) => {
      const o = await openingOf(tx, input.sectionId, true);
      if (o?.status !== 'confirming') throw conflict(OPENING_MSG.notConfirming);
      const [done] = await tx
        .select({ id: bidOpeningResponses.id })
        .from(bidOpeningResponses)
        .where(
          and(
            eq(bidOpeningResponses.sectionId, input.sectionId),
            eq(bidOpeningResponses.enterpriseId, c.enterpriseId),
            eq(bidOpeningResponses.kind, 'confirm'),
          ),
        );
      if (done) throw conflict(OPENING_MSG.alreadyConfirmed);
      const text = input.kind === 'objection' ? input.text : null;
      const [r] = await tx
        .insert(bidOpeningResponses)
        .values({
          sectionId: input.sectionId,
          enterpriseId: c.enterpriseId,
          userId: c.id,
          kind: input.kind,
          text,
          at: now,
        })
        .returning();
      const name = (await enterpriseNames(tx, [c.enterpriseId])).get(c.enterpriseId) ?? '';
      await appendEvent(tx, {
        kind: input.kind === 'confirm' ? 'opening.confirmed' : 'opening.objection',
        sectionId: input.sectionId,
        actor: ledgerActor(c.actor),
        payload: { responseId: r!.id, enterpriseId: c.enterpriseId, enterpriseName: name, text },
        at: now,
      });
      await writeOpLog(tx, c.actor, {
        glName: GL_NAME,
        recordId: input.sectionId,
        logbook: input.kind === 'confirm' ? '确认开标结果' : `对开标提出异议：${text}`,
      });
      await announce(tx, input.sectionId);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(OPENING_MSG.alreadyConfirmed);
    throw e;
  }
  return hallOf(deps, c, place);
}

/** The host answers an objection, on the record. */
export async function answer(
  deps: OpeningDeps,
  c: OpeningCaller,
  input: { id: string; answer: string },
): Promise<OpeningHall> {
  const [r] = await deps.db.select().from(bidOpeningResponses).where(eq(bidOpeningResponses.id, input.id));
  if (r?.kind !== 'objection') throw notFound(OPENING_MSG.objectionMissing);
  const place = await placeOf(deps.db, c, r.sectionId);
  requireHost(place);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const o = await openingOf(tx, r.sectionId, true);
    if (o?.status !== 'confirming') throw conflict(OPENING_MSG.notConfirming);
    const [done] = await tx
      .update(bidOpeningResponses)
      .set({ answer: input.answer, answeredAt: now, answeredBy: c.id })
      .where(and(eq(bidOpeningResponses.id, r.id), isNull(bidOpeningResponses.answer)))
      .returning();
    if (!done) throw conflict(OPENING_MSG.alreadyAnswered);
    const name = (await enterpriseNames(tx, [r.enterpriseId])).get(r.enterpriseId) ?? '';
    await appendEvent(tx, {
      kind: 'opening.answered',
      sectionId: r.sectionId,
      actor: ledgerActor(c.actor),
      payload: { responseId: r.id, enterpriseName: name, objection: r.text, answer: input.answer },
      at: now,
    });
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: r.sectionId,
      logbook: `答复${name}的异议：${input.answer}`,
    });
    await announce(tx, r.sectionId);
  });
  return hallOf(deps, c, place);
}

/** 结束开标: every objection answered; bidders who did not confirm are recorded as such. */
export async function close(deps: OpeningDeps, c: OpeningCaller, sectionId: string): Promise<OpeningHall> {
  const place = await placeOf(deps.db, c, sectionId);
  requireHost(place);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const o = await openingOf(tx, sectionId, true);
    if (o?.status !== 'confirming') throw conflict(OPENING_MSG.notConfirming);
    const responses = await tx.select().from(bidOpeningResponses).where(eq(bidOpeningResponses.sectionId, sectionId));
    if (responses.some((r) => r.kind === 'objection' && !r.answer)) throw conflict(OPENING_MSG.openObjections);
    const bids = await tx.select().from(bidOpeningBids).where(eq(bidOpeningBids.sectionId, sectionId));
    const names = await enterpriseNames(
      tx,
      bids.map((b) => b.enterpriseId),
    );
    const confirmed = new Set(responses.filter((r) => r.kind === 'confirm').map((r) => r.enterpriseId));
    await tx.update(bidOpenings).set({ status: 'closed', closedAt: now }).where(eq(bidOpenings.sectionId, sectionId));
    await appendEvent(tx, {
      kind: 'opening.closed',
      sectionId,
      actor: ledgerActor(c.actor),
      payload: {
        read: bids.filter((b) => b.readAt).length,
        excluded: bids.filter((b) => b.status === 'late').length,
        confirmed: bids.filter((b) => confirmed.has(b.enterpriseId)).map((b) => names.get(b.enterpriseId) ?? ''),
        unconfirmed: bids.filter((b) => !confirmed.has(b.enterpriseId)).map((b) => names.get(b.enterpriseId) ?? ''),
      },
      at: now,
    });
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: sectionId,
      logbook: `结束开标：标段 ${place.section.code} ${place.section.name}`,
    });
    await announce(tx, sectionId);
  });
  return hallOf(deps, c, place);
}

/** The hall of a section the caller may enter, for the opening record. */
export async function recordHall(deps: OpeningDeps, c: OpeningCaller, sectionId: string) {
  const h = await hall(deps, c, sectionId);
  if (!h.actions.record) throw conflict(OPENING_MSG.notClosed);
  const [o] = await deps.db.select().from(bidOpenings).where(eq(bidOpenings.sectionId, sectionId));
  const [host] = await deps.db.select({ name: users.userName }).from(users).where(eq(users.id, o!.hostId));
  return { hall: h, hostName: host?.name ?? '' };
}

export { money };
