import {
  addDays,
  appToday,
  type VenueAvailability,
  type VenueBooking,
  type VenueRoom,
  weekStartOf,
} from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { createPortalServer, queryOf } from '../../test/portal';
import { renderRoutes } from '../../test/render';
import { menu, setupShell } from '../shell/testData';
import { barPlace, cellOf, freeMinutes, overlaps, weekDays } from './calendar';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
  sessionStorage.clear();
});

/** The first page of a file loads the app's lazy chunks: slow on a busy machine. */
const SLOW = { timeout: 20_000 };
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const today = appToday();
const monday = weekStartOf(today);
/** a day of next week: always in the future */
const later = addDays(monday, 9);

const ROOMS: VenueRoom[] = [
  {
    id: uuid(1),
    name: '第一开标室',
    kind: '开标室',
    capacity: 80,
    equipment: '投影仪',
    location: '3 楼 301',
    enabled: true,
  },
  {
    id: uuid(2),
    name: '第一评标室',
    kind: '评标室',
    capacity: 15,
    equipment: null,
    location: '5 楼 501',
    enabled: true,
  },
  {
    id: uuid(3),
    name: '第四评标室',
    kind: '评标室',
    capacity: 9,
    equipment: null,
    location: '5 楼 506',
    enabled: false,
  },
];

function booking(n: number, over: Partial<VenueBooking> = {}): VenueBooking {
  return {
    id: uuid(100 + n),
    roomId: uuid(1),
    roomName: '第一开标室',
    sectionId: null,
    subject: `太原市测试项目${n}开标`,
    startsAt: `${later} 09:00`,
    endsAt: `${later} 11:00`,
    status: 'booked',
    bookedBy: '张建国',
    enterpriseName: '示例建设工程有限公司',
    createdAt: '2026-11-20T02:00:00.000Z',
    cancelReason: null,
    cancelledAt: null,
    version: 0,
    operations: { cancel: true, move: true },
    ...over,
  };
}

const json = (req: TransportRequest) => JSON.parse(String(req.body ?? '{}'));
const VENUE_MENU = [menu({ gnCoding: 'CDYY_CDYY', title: '场地预约', systemCoding: 'CDYY', nodeProperties: 'venue' })];

describe('calendar helpers', () => {
  it('lays out a week, its cells and a slot on the day bar', () => {
    const days = weekDays('2026-11-23', '2026-11-27');
    expect(days.map((d) => d.label)).toEqual([
      '周一 11-23',
      '周二 11-24',
      '周三 11-25',
      '周四 11-26',
      '周五 11-27',
      '周六 11-28',
      '周日 11-29',
    ]);
    expect(days.filter((d) => d.isToday).map((d) => d.date)).toEqual(['2026-11-27']);
    const items = [
      { roomId: 'a', startsAt: '2026-11-24 14:00', endsAt: '2026-11-24 15:00' },
      { roomId: 'a', startsAt: '2026-11-24 09:00', endsAt: '2026-11-24 10:30' },
      { roomId: 'b', startsAt: '2026-11-24 09:00', endsAt: '2026-11-24 10:00' },
    ];
    expect(cellOf(items, 'a', '2026-11-24').map((b) => b.startsAt)).toEqual(['2026-11-24 09:00', '2026-11-24 14:00']);
    // 08:00–18:00 is 600 minutes: 09:00–10:30 starts at 10 % and is 15 % wide
    expect(barPlace(items[1]!)).toEqual({ left: 10, width: 15 });
    expect(freeMinutes(cellOf(items, 'a', '2026-11-24'))).toBe(600 - 150);
    // half-open ranges: back to back is no overlap
    expect(overlaps(items[1]!, { startsAt: '2026-11-24 10:30', endsAt: '2026-11-24 11:00' })).toBe(false);
    expect(overlaps(items[1]!, { startsAt: '2026-11-24 10:00', endsAt: '2026-11-24 11:00' })).toBe(true);
  });
});

describe('/meetingVenue/meeting (administrators)', () => {
  it('shows rooms × days with the bookings; a block opens its details; cancel asks for a reason and sends it', async () => {
    let records = [
      booking(1),
      booking(2, {
        roomId: uuid(2),
        roomName: '第一评标室',
        enterpriseName: null,
        bookedBy: '平台管理员',
        startsAt: `${later} 14:00`,
        endsAt: `${later} 17:30`,
      }),
    ];
    const { server } = setupShell({
      roleType: 'M',
      systemCoding: 'CDYY',
      menus: VENUE_MENU,
      handlers: {
        'GET /ks/venue/v1/rooms': () => ({ data: { rooms: ROOMS } }),
        'POST /ks/venue/v1/bookings/list': (req) => {
          const b = json(req);
          const end = addDays(b.from, b.days);
          const shown = records.filter((r) => b.withCancelled || r.status === 'booked');
          return { data: { records: shown.filter((r) => r.startsAt >= b.from && r.startsAt < end) } };
        },
        'GET /ks/venue/v1/bookings/history': () => ({
          data: {
            records: [
              {
                action: '预约',
                roomName: '第一开标室',
                startsAt: `${later} 09:00`,
                endsAt: `${later} 11:00`,
                fromRoomName: null,
                fromStartsAt: null,
                fromEndsAt: null,
                reason: null,
                actorName: '张建国',
                at: '2026-11-20 10:00',
              },
            ],
          },
        }),
        'POST /ks/venue/v1/bookings/cancel': (req) => {
          const b = json(req);
          records = records.map((r) =>
            r.id === b.id ? { ...r, status: 'cancelled' as const, cancelReason: b.reason } : r,
          );
          return { data: records.find((r) => r.id === b.id) };
        },
      },
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/meetingVenue/meeting?gnCoding=CDYY_CDYY&systemCoding=CDYY');
    const calendar = await screen.findByTestId('venue-calendar', {}, SLOW);
    expect(within(calendar).getByText('第四评标室').closest('tr')!.textContent).toContain('已停用');
    // this week: nothing booked in the fake; next week has both
    expect(within(calendar).queryAllByTestId('venue-block')).toHaveLength(0);
    await user.click(screen.getByTestId('venue-next'));
    await waitFor(() => expect(within(calendar).getAllByTestId('venue-block')).toHaveLength(2));
    const cell = screen.getByTestId(`venue-cal-第一开标室-${later}`);
    expect(cell.textContent).toContain('09:00–11:00');
    expect(cell.textContent).toContain('太原市测试项目1开标');

    await user.click(within(cell).getByTestId('venue-block'));
    const detail = await screen.findByTestId('venue-detail');
    expect(detail.textContent).toContain('示例建设工程有限公司');
    expect(detail.textContent).toContain('张建国');
    await waitFor(() => expect(screen.getByTestId('venue-history').textContent).toContain('预约 · 张建国'));

    await user.click(screen.getByTestId('venue-cancel'));
    await user.click(await screen.findByTestId('venue-cancel-ok'));
    expect(await screen.findByText('请输入取消原因')).toBeTruthy();
    expect(server.callsTo('/ks/venue/v1/bookings/cancel')).toHaveLength(0);
    await user.type(screen.getByTestId('venue-cancel-reason'), '开标时间顺延');
    await user.click(screen.getByTestId('venue-cancel-ok'));
    await waitFor(() => expect(server.callsTo('/ks/venue/v1/bookings/cancel')).toHaveLength(1));
    expect(json(server.callsTo('/ks/venue/v1/bookings/cancel')[0]!)).toEqual({
      id: uuid(101),
      reason: '开标时间顺延',
      version: 0,
    });
    // the calendar re-reads: the cancelled booking is gone from the live view
    await waitFor(() => expect(within(calendar).getAllByTestId('venue-block')).toHaveLength(1));
  }, 60_000);
});

describe('/meetingVenue/booking (enterprise users)', () => {
  it('books a room; a taken slot shows the server’s 409 message above the form', async () => {
    const busy: VenueAvailability = {
      from: later,
      days: 1,
      hours: { open: '08:00', close: '18:00' },
      rooms: ROOMS.filter((r) => r.enabled),
      busy: [{ roomId: uuid(1), startsAt: `${later} 09:00`, endsAt: `${later} 11:00` }],
    };
    const { server } = setupShell({
      roleType: 'U',
      systemCoding: 'CDYY',
      menus: VENUE_MENU,
      handlers: {
        'GET /ks/venue/v1/rooms': () => ({ data: { rooms: ROOMS } }),
        'POST /ks/venue/v1/bookings/list': () => ({ data: { records: [booking(3)] } }),
        'GET /ks/venue/v1/public/availability': (req) => ({ data: { ...busy, from: queryOf(req).get('from') } }),
        'POST /ks/venue/v1/bookings/create': () => ({ status: 409, code: 409, message: '该场地在所选时段已被预约' }),
      },
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/meetingVenue/booking?gnCoding=CDYY_CDYY&systemCoding=CDYY');
    const mine = await screen.findByTestId('venue-my-bookings', {}, SLOW);
    await waitFor(() => expect(mine.textContent).toContain('太原市测试项目3开标'));

    await user.click(screen.getByTestId('venue-book-submit'));
    expect(await screen.findByText('请选择场地')).toBeTruthy();
    expect(server.callsTo('/ks/venue/v1/bookings/create')).toHaveLength(0);
    // the disabled room is not offered
    await user.click(screen.getByTestId('venue-room'));
    expect(screen.queryByText(/第四评标室/, { selector: '.ant-select-item-option-content' })).toBeNull();
    await user.click(
      await screen.findByText('第一开标室（开标室 · 80 人）', { selector: '.ant-select-item-option-content' }),
    );
    await user.click(screen.getByTestId('venue-date'));
    await user.keyboard(`${later}{Enter}`);
    const pick = async (testId: string, text: string) => {
      await user.click(screen.getByTestId(testId));
      const options = await screen.findAllByText(text, { selector: '.ant-select-item-option-content' });
      await user.click(options.at(-1)!);
    };
    await pick('venue-start', '10:00');
    await pick('venue-end', '11:30');
    await user.type(screen.getByTestId('venue-subject'), '晋中市测试项目开标');
    // the room's day is shown with its busy slot, and the overlap is pointed out before sending
    await waitFor(() => expect(screen.getByTestId('venue-day-busy').textContent).toContain('09:00–11:00'));
    expect(screen.getByTestId('venue-clash-hint')).toBeTruthy();
    await user.click(screen.getByTestId('venue-book-submit'));
    await waitFor(() => expect(server.callsTo('/ks/venue/v1/bookings/create')).toHaveLength(1));
    expect(json(server.callsTo('/ks/venue/v1/bookings/create')[0]!)).toEqual({
      roomId: uuid(1),
      startsAt: `${later} 10:00`,
      endsAt: `${later} 11:30`,
      subject: '晋中市测试项目开标',
    });
    expect((await screen.findByTestId('venue-book-error')).textContent).toContain('该场地在所选时段已被预约');
  }, 60_000);
});

describe('/venue (public)', () => {
  it('shows each room’s busy slots of the week without a token and without names', async () => {
    const server = createPortalServer({
      'GET /ks/venue/v1/public/availability': (req) => ({
        data: {
          from: queryOf(req).get('from'),
          days: 7,
          hours: { open: '08:00', close: '18:00' },
          rooms: ROOMS.filter((r) => r.enabled),
          busy: [{ roomId: uuid(2), startsAt: `${monday} 14:00`, endsAt: `${monday} 17:30` }],
        },
      }),
    });
    configureRequest({ transport: server.transport });
    const user = userEvent.setup();
    renderRoutes(routes, '/venue', { antd: false });
    const grid = await screen.findByTestId('venue-grid', {}, SLOW);
    const cell = within(grid).getByTestId(`venue-cell-第一评标室-${monday}`);
    expect(cell.textContent).toContain('14:00–17:30 已占用');
    expect(within(grid).getByTestId(`venue-cell-第一开标室-${monday}`).textContent).toContain('全天空闲');
    const call = server.callsTo('/ks/venue/v1/public/availability')[0]!;
    expect(call.headers?.Authorization ?? call.headers?.authorization).toBeUndefined();
    expect(queryOf(call).get('from')).toBe(monday);
    await user.click(screen.getByTestId('venue-next'));
    await waitFor(() =>
      expect(queryOf(server.callsTo('/ks/venue/v1/public/availability').at(-1)!).get('from')).toBe(addDays(monday, 7)),
    );
  }, 60_000);
});
