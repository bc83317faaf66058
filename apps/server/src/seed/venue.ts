import {
  addDays,
  appToday,
  instantOfWallClock,
  VENUE_BOOKING_NODE,
  VENUE_ROOM_NODE,
  type VenueKind,
  weekStartOf,
} from '@ks/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { menuNodes, users } from '../db/schema';
import { saveFields } from '../modules/engine/schema.service';
import { roomsNode, VENUE_ROOM_FIELDS } from '../modules/venue/rooms';
import * as repo from '../modules/venue/venue.repo';
import { type Actor, SYSTEM_ACTOR, writeOpLog } from '../platform/oplog';

/**
 * Demo venues (issue 16): the fields of 场地管理 (the same path a developer's field editor takes), the seven rooms of
 * the 太原 trading centre, and the bookings of this week and the next (relative to today) so the calendar is not empty:
 * the centre's own sessions (administrator) and the demo enterprise's (user1), one moved and one cancelled.
 */

const CENTRE = '太原市公共资源交易中心';

export const DEMO_ROOMS: {
  name: string;
  kind: VenueKind;
  capacity: number;
  equipment: string[];
  location: string;
  enabled: boolean;
}[] = [
  {
    name: '第一开标室',
    kind: '开标室',
    capacity: 80,
    equipment: ['投影仪', 'LED 大屏', '音响扩声', '录音录像', '视频监控'],
    location: `${CENTRE} 3 楼 301`,
    enabled: true,
  },
  {
    name: '第二开标室',
    kind: '开标室',
    capacity: 60,
    equipment: ['LED 大屏', '音响扩声', '录音录像', '视频监控'],
    location: `${CENTRE} 3 楼 302`,
    enabled: true,
  },
  {
    name: '第三开标室',
    kind: '开标室',
    capacity: 40,
    equipment: ['投影仪', '音响扩声', '录音录像', '视频监控'],
    location: `${CENTRE} 3 楼 305`,
    enabled: true,
  },
  {
    name: '第一评标室',
    kind: '评标室',
    capacity: 15,
    equipment: ['电子评标终端', '录音录像', '视频监控', '屏蔽信号', '隔音'],
    location: `${CENTRE} 5 楼 501`,
    enabled: true,
  },
  {
    name: '第二评标室',
    kind: '评标室',
    capacity: 15,
    equipment: ['电子评标终端', '录音录像', '视频监控', '屏蔽信号', '隔音'],
    location: `${CENTRE} 5 楼 502`,
    enabled: true,
  },
  {
    name: '第三评标室',
    kind: '评标室',
    capacity: 11,
    equipment: ['电子评标终端', '录音录像', '视频监控', '屏蔽信号'],
    location: `${CENTRE} 5 楼 503`,
    enabled: true,
  },
  {
    // under refit: shown in 场地管理, not bookable
    name: '第四评标室',
    kind: '评标室',
    capacity: 9,
    equipment: ['电子评标终端', '视频监控'],
    location: `${CENTRE} 5 楼 506`,
    enabled: false,
  },
];

type Who = 'admin' | 'user1';
/** [day offset from this week's Monday, start, end, room, who, subject] */
const DEMO_BOOKINGS: [number, string, string, string, Who, string][] = [
  [0, '09:00', '11:00', '第一开标室', 'admin', '太原市小店区2026年老旧小区改造工程（一标段）开标'],
  [0, '14:00', '17:30', '第一评标室', 'admin', '太原市小店区2026年老旧小区改造工程（一标段）评标'],
  [1, '09:30', '11:30', '第二开标室', 'user1', '晋中市榆次区第二中学教学楼建设项目开标'],
  [1, '13:30', '17:00', '第二评标室', 'user1', '晋中市榆次区第二中学教学楼建设项目评标'],
  [2, '09:00', '10:30', '第一开标室', 'admin', '大同市云冈区污水处理厂提标改造项目开标'],
  [2, '10:30', '12:00', '第一开标室', 'user1', '长治市潞州区城市道路照明工程开标'],
  [2, '14:00', '18:00', '第三评标室', 'admin', '大同市云冈区污水处理厂提标改造项目评标'],
  [3, '14:00', '16:00', '第三开标室', 'admin', '太原市晋源区农村饮水安全巩固提升工程开标'],
  [4, '09:00', '12:00', '第一评标室', 'user1', '长治市潞州区城市道路照明工程评标'],
  [4, '14:30', '16:30', '第二开标室', 'admin', '太原市第五人民医院医疗设备采购项目开标'],
  [7, '09:00', '11:00', '第一开标室', 'user1', '太原市迎泽区滨河东路雨污分流改造工程开标'],
  [8, '14:00', '17:00', '第二评标室', 'admin', '晋中市太谷区设施农业产业园基础设施项目评标'],
  [9, '09:30', '11:00', '第三开标室', 'admin', '长治市上党区乡村振兴示范村道路硬化工程开标'],
];

async function actorOf(tx: Db, account: Who) {
  const [u] = await tx.select().from(users).where(eq(users.account, account));
  const actor: Actor = { userId: u!.id, userName: u!.userName, loginRoleType: u!.loginRoleType as 'M' | 'U' };
  return { user: u!, actor };
}

export async function seedVenue(tx: Db, now: Date = new Date()): Promise<void> {
  const [node] = await tx.select().from(menuNodes).where(eq(menuNodes.gnCoding, VENUE_ROOM_NODE));
  if (!node) return;
  await saveFields(tx, SYSTEM_ACTOR, VENUE_ROOM_NODE, VENUE_ROOM_FIELDS, 0, []);
  const admin = await actorOf(tx, 'admin');
  const user1 = await actorOf(tx, 'user1');
  const rooms = new Map<string, string>();
  for (const r of DEMO_ROOMS) {
    const rec = await roomsNode.create(
      tx,
      {
        mc: r.name,
        lx: r.kind,
        rnrs: r.capacity,
        sb: r.equipment.join(';'),
        wz: r.location,
        sfqy: r.enabled ? '1' : '0',
      },
      { owner: { ownerId: admin.user.id, enterpriseId: null }, actor: admin.actor, logbook: `新增场地：${r.name}` },
    );
    rooms.set(r.name, rec.id);
  }
  const monday = weekStartOf(appToday(now));
  let moved: string | null = null;
  for (const [day, from, to, room, who, subject] of DEMO_BOOKINGS) {
    const date = addDays(monday, day);
    const by = who === 'admin' ? admin : user1;
    const id = await repo.insertBooking(
      tx,
      {
        roomId: rooms.get(room)!,
        roomName: room,
        subject,
        bookedBy: by.user.id,
        bookerName: by.user.userName,
        enterpriseId: who === 'admin' ? null : by.user.enterpriseId,
        startsAt: instantOfWallClock(`${date} ${from}`),
        endsAt: instantOfWallClock(`${date} ${to}`),
      },
      { id: by.user.id, name: by.user.userName },
    );
    await writeOpLog(tx, by.actor, {
      glName: '场地预约',
      gnCoding: VENUE_BOOKING_NODE,
      recordId: id,
      logbook: `预约${room} ${date} ${from}–${to}（${subject}）`,
    });
    if (day === 7) moved = id;
  }
  // the demo enterprise's opening of next week was first booked in another room, then moved by the centre
  const nextMonday = addDays(monday, 7);
  const cancelled = await repo.insertBooking(
    tx,
    {
      roomId: rooms.get('第二开标室')!,
      roomName: '第二开标室',
      subject: '晋中市榆次区东顺城街道路提质改造工程开标',
      bookedBy: user1.user.id,
      bookerName: user1.user.userName,
      enterpriseId: user1.user.enterpriseId,
      startsAt: instantOfWallClock(`${addDays(monday, 3)} 09:00`),
      endsAt: instantOfWallClock(`${addDays(monday, 3)} 11:00`),
    },
    { id: user1.user.id, name: user1.user.userName },
  );
  const before = (await repo.bookingById(tx, cancelled))!;
  await repo.cancelBooking(tx, before, '招标文件发布澄清，开标时间顺延，另行预约', now, {
    id: user1.user.id,
    name: user1.user.userName,
  });
  await writeOpLog(tx, user1.actor, {
    glName: '场地预约',
    gnCoding: VENUE_BOOKING_NODE,
    recordId: cancelled,
    logbook: `取消预约第二开标室 ${addDays(monday, 3)} 09:00–11:00（原因：招标文件发布澄清，开标时间顺延，另行预约）`,
  });
  if (moved) {
    const b = (await repo.bookingById(tx, moved))!;
    // recorded as moved from 第二开标室 09:00–11:00 to where it is now
    await repo.moveBooking(
      tx,
      { ...b, roomId: rooms.get('第二开标室')!, roomName: '第二开标室' },
      {
        roomId: b.roomId,
        roomName: b.roomName,
        startsAt: b.startsAt,
        endsAt: b.endsAt,
        reason: '投标人较多，换用较大的开标室',
        now,
      },
      { id: admin.user.id, name: admin.user.userName },
    );
    await writeOpLog(tx, admin.actor, {
      glName: '场地预约',
      gnCoding: VENUE_BOOKING_NODE,
      recordId: moved,
      logbook: `改期：第二开标室 ${nextMonday} 09:00–11:00 → 第一开标室 ${nextMonday} 09:00–11:00（原因：投标人较多，换用较大的开标室）`,
    });
  }
}
