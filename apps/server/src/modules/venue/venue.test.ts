import { addDays, appToday, VENUE_MESSAGES } from '@ks/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  grants,
  menuNodes,
  operationLogs,
  tenderSections,
  users,
  venueBookingHistory,
  venueBookings,
} from '../../db/schema';
import { type Body, client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { newEnterprise } from '../credit/testkit';

/**
 * Venue booking (issue 16): rooms from 场地管理, bookings held apart by the database's exclusion constraint (20 at once
 * on one slot: exactly one wins), move and cancel with history and op-log rows, roles and ownership, and a public
 * availability that names nobody.
 */

let t: TestApp;
const api = client(() => t);
let admin: string;
let dev: string;
let user1: string;
let other: string;
let rooms: { id: string; name: string; enabled: boolean; kind: string }[];
const P = {
  rooms: '/ks/venue/v1/rooms',
  availability: '/ks/venue/v1/public/availability',
  list: '/ks/venue/v1/bookings/list',
  book: '/ks/venue/v1/bookings/create',
  cancel: '/ks/venue/v1/bookings/cancel',
  move: '/ks/venue/v1/bookings/move',
  history: '/ks/venue/v1/bookings/history',
};
/** a day well past the demo's bookings (this week and the next) and within the booking horizon */
let day: string;
const room = (name: string) => rooms.find((r) => r.name === name)!.id;
const book = (token: string, roomName: string, from: string, to: string, subject = '测试项目开标', d = day) =>
  api.post(P.book, token, { roomId: room(roomName), startsAt: `${d} ${from}`, endsAt: `${d} ${to}`, subject });

beforeAll(async () => {
  t = await createTestApp();
  admin = await loginToken(t.app, 'admin', 'M');
  dev = await loginToken(t.app, 'dev', 'D');
  user1 = await loginToken(t.app, 'user1', 'U');
  // another enterprise's agent
  const ent = await newEnterprise(t.database.db, '山西晋通招标代理有限公司');
  const [u1] = await t.database.db.select().from(users).where(eq(users.account, 'user1'));
  await t.database.db.insert(users).values({
    account: 'agent2',
    userName: '赵丽娟',
    loginRoleType: 'U',
    passwordHash: u1!.passwordHash,
    enterpriseId: ent,
  });
  other = await loginToken(t.app, 'agent2', 'U');
  const r = await api.get(P.rooms, user1);
  expect(r.status).toBe(200);
  rooms = r.body.data.rooms;
  day = addDays(appToday(t.clock.now), 30);
}, 60_000);
afterAll(async () => t?.close());

describe('rooms', () => {
  it('are the seven seeded records of 场地管理, one disabled', async () => {
    expect(rooms.map((r) => r.name)).toEqual([
      '第一开标室',
      '第二开标室',
      '第三开标室',
      '第一评标室',
      '第二评标室',
      '第三评标室',
      '第四评标室',
    ]);
    expect(rooms.filter((r) => !r.enabled).map((r) => r.name)).toEqual(['第四评标室']);
    expect((await api.get(P.rooms, null)).status).toBe(401);
  });

  it('a room added in the dynamic list is bookable (its switch starts on)', async () => {
    const saved = await api.post('/ks/engine/v1/records/save', admin, {
      gnCoding: 'CDYY_CDGL',
      values: { mc: '第五评标室', lx: '评标室', rnrs: 7, wz: '太原市公共资源交易中心 5 楼 508', sfqy: '1' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const list = (await api.get(P.rooms, admin)).body.data.rooms as typeof rooms;
    const added = list.find((r) => r.name === '第五评标室')!;
    expect(added).toMatchObject({ kind: '评标室', enabled: true });
  });
});

describe('booking', () => {
  it('20 concurrent bookings of one slot: exactly one succeeds, the other 19 get 409 with the message', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        book(i % 2 ? user1 : other, '第一开标室', '09:00', '10:30', `并发预约 ${i}`),
      ),
    );
    // (statuses first: a deadlock between two of them once answered 500 on a loaded machine)
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(19).fill(409)]);
    const refused = answers.filter((a) => a.status === 409);
    for (const r of refused) expect(r.body.message).toBe(VENUE_MESSAGES.conflict);
    const rows = await t.database.db
      .select()
      .from(venueBookings)
      .where(and(eq(venueBookings.roomId, room('第一开标室')), eq(venueBookings.status, 'booked')));
    expect(rows.filter((b) => b.subject.startsWith('并发预约'))).toHaveLength(1);
  });

  it('a booking touching another at its end is fine; overlapping by half an hour is refused', async () => {
    expect((await book(user1, '第一开标室', '10:30', '11:00')).status).toBe(200);
    const overlap = await book(other, '第一开标室', '08:30', '09:30');
    expect(overlap.status).toBe(409);
    expect(overlap.body.message).toBe('该场地在所选时段已被预约');
    // the same time in another room is free
    expect((await book(other, '第二开标室', '09:00', '10:30')).status).toBe(200);
  });

  it('refuses bad times and rooms with a clear 400, and changes nothing', async () => {
    const before = await t.database.db.select().from(venueBookings);
    const cases: [string, string, string, string][] = [
      ['第三开标室', `${day} 11:00`, `${day} 10:00`, VENUE_MESSAGES.endBeforeStart],
      ['第三开标室', `${day} 07:00`, `${day} 09:00`, VENUE_MESSAGES.outsideHours],
      ['第三开标室', `${day} 17:00`, `${day} 18:30`, VENUE_MESSAGES.outsideHours],
      ['第三开标室', `${day} 09:15`, `${day} 10:00`, VENUE_MESSAGES.slot],
      ['第三开标室', `${day} 09:00`, `${addDays(day, 1)} 10:00`, VENUE_MESSAGES.sameDay],
      [
        '第三开标室',
        `${addDays(appToday(t.clock.now), -1)} 09:00`,
        `${addDays(appToday(t.clock.now), -1)} 10:00`,
        VENUE_MESSAGES.past,
      ],
      ['第三开标室', `${addDays(day, 80)} 09:00`, `${addDays(day, 80)} 10:00`, VENUE_MESSAGES.tooFar],
      ['第四评标室', `${day} 09:00`, `${day} 10:00`, VENUE_MESSAGES.roomDisabled],
    ];
    for (const [name, startsAt, endsAt, message] of cases) {
      const r = await api.post(P.book, user1, { roomId: room(name), startsAt, endsAt, subject: '开标' });
      expect(r.status, message).toBe(400);
      expect(r.body.message).toBe(message);
    }
    const noSubject = await api.post(P.book, user1, {
      roomId: room('第三开标室'),
      startsAt: `${day} 09:00`,
      endsAt: `${day} 10:00`,
      subject: '  ',
    });
    expect(noSubject.status).toBe(400);
    const unknownRoom = await api.post(P.book, user1, {
      roomId: '00000000-0000-4000-8000-000000000000',
      startsAt: `${day} 09:00`,
      endsAt: `${day} 10:00`,
      subject: '开标',
    });
    expect(unknownRoom.status).toBe(400);
    expect(unknownRoom.body.message).toBe(VENUE_MESSAGES.roomMissing);
    expect(await t.database.db.select().from(venueBookings)).toHaveLength(before.length);
  });

  it('the database itself refuses an overlap, whoever writes', async () => {
    const [u] = await t.database.db.select().from(users).where(eq(users.account, 'admin'));
    const insert = (from: string, to: string) =>
      t.database.db.insert(venueBookings).values({
        roomId: room('第三评标室'),
        roomName: '第三评标室',
        subject: '直接写入',
        bookedBy: u!.id,
        bookerName: u!.userName,
        startsAt: new Date(`${addDays(day, 2)}T09:00:00+08:00`.replace('09:00', from)),
        endsAt: new Date(`${addDays(day, 2)}T09:00:00+08:00`.replace('09:00', to)),
      });
    await insert('09:00', '10:00');
    await expect(insert('09:30', '10:30')).rejects.toSatisfy((e: unknown) => {
      const err = e as { code?: string; cause?: { code?: string } };
      return (err.code ?? err.cause?.code) === '23P01';
    });
  });
});

describe('move and cancel', () => {
  it('move into a taken slot is refused; into a free one moves it, with history and an op-log row', async () => {
    const mine = await book(user1, '第二评标室', '14:00', '15:00', '晋中市项目评标');
    expect(mine.status).toBe(200);
    const theirs = await book(other, '第二评标室', '15:00', '16:00', '大同市项目评标');
    expect(theirs.status).toBe(200);
    const id = mine.body.data.id as string;
    const taken = await api.post(P.move, user1, { id, startsAt: `${day} 14:30`, endsAt: `${day} 15:30` });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(VENUE_MESSAGES.conflict);
    const same = await api.post(P.move, user1, { id, startsAt: `${day} 14:00`, endsAt: `${day} 15:00` });
    expect(same.status).toBe(400);
    expect(same.body.message).toBe(VENUE_MESSAGES.unchanged);
    const moved = await api.post(P.move, user1, {
      id,
      roomId: room('第一评标室'),
      startsAt: `${day} 16:00`,
      endsAt: `${day} 17:30`,
      reason: '专家时间调整',
      version: 0,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({
      roomName: '第一评标室',
      startsAt: `${day} 16:00`,
      endsAt: `${day} 17:30`,
      version: 1,
    });
    // a stale version
    const stale = await api.post(P.move, user1, { id, startsAt: `${day} 13:00`, endsAt: `${day} 14:00`, version: 0 });
    expect(stale.status).toBe(409);
    // the old slot is free again
    expect((await book(other, '第二评标室', '14:00', '15:00')).status).toBe(200);
    const history = await api.get(`${P.history}?id=${id}`, user1);
    expect(history.body.data.records.map((h: { action: string }) => h.action)).toEqual(['预约', '改期']);
    expect(history.body.data.records[1]).toMatchObject({
      fromRoomName: '第二评标室',
      fromStartsAt: `${day} 14:00`,
      roomName: '第一评标室',
      startsAt: `${day} 16:00`,
      reason: '专家时间调整',
      actorName: '张建国',
    });
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.recordId, id));
    expect(logs.map((l) => l.logbook)).toEqual(
      expect.arrayContaining([expect.stringContaining('预约第二评标室'), expect.stringContaining('改期：第二评标室')]),
    );
  });

  it('cancel needs a reason, frees the slot, and cannot be repeated', async () => {
    const b = await book(user1, '第三开标室', '09:00', '11:00', '长治市项目开标');
    expect(b.status).toBe(200);
    const id = b.body.data.id as string;
    expect((await api.post(P.cancel, user1, { id, reason: ' ' })).status).toBe(400);
    const cancelled = await api.post(P.cancel, user1, { id, reason: '招标文件澄清，开标顺延' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancelReason: '招标文件澄清，开标顺延' });
    expect(cancelled.body.data.operations).toEqual({ cancel: false, move: false });
    const again = await api.post(P.cancel, user1, { id, reason: '再取消' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(VENUE_MESSAGES.notBooked);
    expect((await book(other, '第三开标室', '09:00', '11:00')).status).toBe(200);
    const h = await t.database.db.select().from(venueBookingHistory).where(eq(venueBookingHistory.bookingId, id));
    expect(h.map((x) => x.action).sort()).toEqual(['cancel', 'create']);
    const logs = await t.database.db.select().from(operationLogs).where(eq(operationLogs.recordId, id));
    expect(logs.some((l) => l.logbook.startsWith('取消预约第三开标室') && l.logbook.includes('开标顺延'))).toBe(true);
  });
});

describe('roles and ownership', () => {
  it('an enterprise sees only its own bookings; administrators and developers see all', async () => {
    const d = addDays(day, 5);
    const mine = await book(user1, '第一开标室', '09:00', '10:00', '本单位项目', d);
    const theirs = await book(other, '第二开标室', '09:00', '10:00', '他单位项目', d);
    const list = async (token: string) =>
      ((await api.post(P.list, token, { from: d, days: 1 })).body.data.records as { id: string }[]).map((r) => r.id);
    expect(await list(user1)).toEqual([mine.body.data.id]);
    expect(await list(other)).toEqual([theirs.body.data.id]);
    expect((await list(admin)).sort()).toEqual([mine.body.data.id, theirs.body.data.id].sort());
    expect((await list(dev)).sort()).toEqual([mine.body.data.id, theirs.body.data.id].sort());
    const adminView = (await api.post(P.list, admin, { from: d, days: 1 })).body.data.records;
    expect(adminView.find((r: { id: string }) => r.id === theirs.body.data.id)).toMatchObject({
      bookedBy: '赵丽娟',
      enterpriseName: '山西晋通招标代理有限公司',
      operations: { cancel: true, move: true },
    });
    const devView = (await api.post(P.list, dev, { from: d, days: 1 })).body.data.records;
    expect(devView[0].operations).toEqual({ cancel: false, move: false });
  });

  it("another enterprise's booking is 404 to cancel, move or read its history; developers change nothing", async () => {
    const d = addDays(day, 6);
    const theirs = await book(other, '第一开标室', '14:00', '15:00', '他单位项目', d);
    const id = theirs.body.data.id as string;
    const cancel = await api.post(P.cancel, user1, { id, reason: '恶意取消' });
    expect(cancel.status).toBe(404);
    const move = await api.post(P.move, user1, { id, startsAt: `${d} 16:00`, endsAt: `${d} 17:00` });
    expect(move.status).toBe(404);
    expect((await api.get(`${P.history}?id=${id}`, user1)).status).toBe(404);
    expect((await api.post(P.cancel, dev, { id, reason: '开发者' })).status).toBe(403);
    expect(
      (
        await api.post(P.book, dev, {
          roomId: room('第二开标室'),
          startsAt: `${d} 09:00`,
          endsAt: `${d} 10:00`,
          subject: 'x',
        })
      ).status,
    ).toBe(403);
    // the administrator may cancel anyone's, with a reason
    const byAdmin = await api.post(P.cancel, admin, { id, reason: '场地设备检修' });
    expect(byAdmin.status).toBe(200);
    const [row] = await t.database.db.select().from(venueBookings).where(eq(venueBookings.id, id));
    expect(row).toMatchObject({ status: 'cancelled', cancelledBy: '平台管理员' });
  });

  it('an ordinary user without the 新增 grant of 场地预约 may not book (403, before the input is read)', async () => {
    const [node] = await t.database.db.select().from(menuNodes).where(eq(menuNodes.gnCoding, 'CDYY_CDYY'));
    const where = and(eq(grants.nodeId, node!.id), eq(grants.subjectId, 'user'), eq(grants.functionCode, 'add'));
    const [g] = await t.database.db.select().from(grants).where(where);
    await t.database.db.delete(grants).where(where);
    try {
      const r = await api.post(P.book, user1, { nonsense: true });
      expect(r.status).toBe(403);
    } finally {
      await t.database.db.insert(grants).values(g!);
    }
  });

  it('no sign-in: 401 for everything but the public availability', async () => {
    expect((await api.post(P.list, null, { from: day, days: 1 })).status).toBe(401);
    expect((await api.post(P.book, null, {})).status).toBe(401);
    expect((await api.post(P.cancel, null, {})).status).toBe(401);
  });
});

describe('public availability', () => {
  it('shows busy slots of enabled rooms and nobody who booked them', async () => {
    const r = await api.get(`${P.availability}?from=${day}&days=7`, null);
    expect(r.status).toBe(200);
    const data = r.body.data as Body['data'];
    expect(data.rooms.map((x: { name: string }) => x.name)).not.toContain('第四评标室');
    expect(data.busy.length).toBeGreaterThan(0);
    for (const b of data.busy) expect(Object.keys(b).sort()).toEqual(['endsAt', 'roomId', 'startsAt']);
    expect(data.busy).toContainEqual({ roomId: room('第一开标室'), startsAt: `${day} 09:00`, endsAt: `${day} 10:30` });
    const text = r.res.body;
    for (const secret of ['张建国', '赵丽娟', '山西晋通', '示例建设', '并发预约', '开标顺延'])
      expect(text).not.toContain(secret);
    // the demo week's bookings are there too
    const week = await api.get(`${P.availability}?from=${appToday(t.clock.now)}&days=14`, null);
    expect(week.body.data.busy.length).toBeGreaterThan(0);
  });

  it('refuses a bad range with the message', async () => {
    const bad = await api.get(`${P.availability}?from=2026-02-30&days=7`, null);
    expect(bad.status).toBe(400);
    const long = await api.get(`${P.availability}?from=${day}&days=60`, null);
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('31');
  });
});

describe('a booking for a tender section', () => {
  it('is made by the section’s project side; a section unknown or of a project the caller may not read is refused', async () => {
    const [bd] = await t.database.db.select().from(tenderSections).orderBy(tenderSections.code).limit(1);
    const at = (token: string, sectionId: string, from: string, to: string) =>
      api.post(P.book, token, {
        roomId: room('第一开标室'),
        startsAt: `${day} ${from}`,
        endsAt: `${day} ${to}`,
        subject: '标段开标',
        sectionId,
      });
    // the demo projects are the centre's (entered by the administrator): user1's enterprise is not of their side
    const foreign = await at(user1, bd!.id, '08:00', '08:30');
    expect(foreign.status).toBe(404);
    const unknown = await at(admin, '3f0a8a38-6f1e-4a53-9d43-1b6a3e1f2c11', '08:00', '08:30');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('标段不存在或已删除');
    const ok = await at(admin, bd!.id, '08:00', '08:30');
    expect(ok.status).toBe(200);
    expect(ok.body.data.sectionId).toBe(bd!.id);
  });
});
