import { addDays, appToday, VENUE_HOURS, type VenueBooking, type VenueRoom, weekStartOf } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Empty, Select, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { LoadFailure, PageFrame } from '../../components/admin';
import { useCurrentUser } from '../../lib/sessionHooks';
import { bookingsQuery, roomsQuery } from './api';
import { BookingDrawer, NewBookingDialog } from './BookingDialogs';
import { cellOf, timeSpan, weekDays, weekLabel } from './calendar';
import './venue.css';

const SECTION = { title: '场地预约' };

/**
 * 场地预约日历 `/meetingVenue/meeting` (the sidebar's 场地预约 for administrators): rooms × the days of a week, each
 * booking a block (time and subject; the trading centre's own in blue, an enterprise's in green, cancelled ones struck
 * through when shown). Click a block for its details and history, and 改期 / 取消预约 (each asks first); ＋ 预约 in a
 * cell, or 新建预约, to book. Developers see everything and change nothing; an enterprise user sees their own.
 */
export default function VenueCalendarPage() {
  const today = appToday();
  const [monday, setMonday] = useState(() => weekStartOf(today));
  const [roomId, setRoomId] = useState<string | undefined>();
  const [withCancelled, setWithCancelled] = useState(false);
  const [open, setOpen] = useState<VenueBooking | null>(null);
  const [creating, setCreating] = useState<{ roomId?: string; date?: string } | null>(null);
  const rooms = useQuery(roomsQuery);
  const bookings = useQuery(bookingsQuery({ from: monday, days: 7, withCancelled }));
  const { isDeveloper } = useCurrentUser();
  const canBook = !isDeveloper;
  const days = weekDays(monday, today);
  const shown: VenueRoom[] = (rooms.data?.rooms ?? []).filter((r) => !roomId || r.id === roomId);
  const records = bookings.data?.records ?? [];
  const live = records.filter((b) => b.status === 'booked');
  // the block that is open, as the latest list has it (after a move or cancel)
  const current = open ? (records.find((b) => b.id === open.id) ?? open) : null;

  return (
    <PageFrame section={SECTION} title="场地预约日历">
      <Card
        data-testid="venue-calendar-page"
        size="small"
        title={
          <Space wrap>
            <Button onClick={() => setMonday(addDays(monday, -7))} data-testid="venue-prev">
              上一周
            </Button>
            <Button onClick={() => setMonday(weekStartOf(today))} data-testid="venue-this">
              本周
            </Button>
            <Button onClick={() => setMonday(addDays(monday, 7))} data-testid="venue-next">
              下一周
            </Button>
            <Typography.Text strong data-testid="venue-week">
              {weekLabel(monday)}
            </Typography.Text>
            {bookings.isFetching ? <Spin size="small" /> : null}
          </Space>
        }
        extra={
          <Space wrap>
            <Select
              allowClear
              placeholder="全部场地"
              style={{ width: 160 }}
              value={roomId}
              onChange={setRoomId}
              options={(rooms.data?.rooms ?? []).map((r) => ({ value: r.id, label: r.name }))}
              data-testid="venue-room-filter"
            />
            <Checkbox checked={withCancelled} onChange={(e) => setWithCancelled(e.target.checked)}>
              显示已取消
            </Checkbox>
            <Button onClick={() => void bookings.refetch()}>刷新</Button>
            {canBook ? (
              <Button type="primary" onClick={() => setCreating({})} data-testid="venue-new">
                新建预约
              </Button>
            ) : null}
          </Space>
        }
      >
        <Space size="large" style={{ marginBottom: 8 }} wrap>
          <Typography.Text type="secondary">
            开放时间 {VENUE_HOURS.open}–{VENUE_HOURS.close} · 本周有效预约 {live.length} 个
          </Typography.Text>
          <span>
            <Tag color="blue">交易中心</Tag>
            <Tag color="green">企业预约</Tag>
            <Tag>已取消</Tag>
          </span>
        </Space>
        {rooms.isError ? (
          <LoadFailure error={rooms.error} what="场地" />
        ) : bookings.isError ? (
          <LoadFailure error={bookings.error} what="预约" />
        ) : rooms.isPending ? (
          <div style={{ padding: 48, textAlign: 'center' }}>
            <Spin />
          </div>
        ) : shown.length === 0 ? (
          <Empty description="暂无场地，请先在「场地管理」中添加" />
        ) : (
          <div className="kv-scroll kv-cal">
            <table className="kv-grid" data-testid="venue-calendar">
              <thead>
                <tr>
                  <th scope="col" className="kv-room-col">
                    场地
                  </th>
                  {days.map((d) => (
                    <th key={d.date} scope="col" className={d.isToday ? 'kv-today' : undefined}>
                      {d.label}
                      {d.isToday ? <span className="kv-today-tag">今天</span> : null}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {shown.map((r) => (
                  <tr key={r.id} className={r.enabled ? undefined : 'kv-disabled-row'}>
                    <th scope="row" className="kv-room-col">
                      <div className="kv-room-name">{r.name}</div>
                      <div className="kv-room-meta">
                        {r.kind}
                        {r.capacity === null ? '' : ` · ${r.capacity} 人`}
                        {r.enabled ? '' : ' · 已停用'}
                      </div>
                    </th>
                    {days.map((d) => {
                      const cell = cellOf(records, r.id, d.date);
                      const bookable = canBook && r.enabled && d.date >= today;
                      return (
                        <td
                          key={d.date}
                          className={d.isToday ? 'kv-today' : undefined}
                          data-testid={`venue-cal-${r.name}-${d.date}`}
                        >
                          {cell.map((b) => (
                            <Tooltip
                              key={b.id}
                              title={`${b.subject} · ${b.enterpriseName ?? '交易中心'} ${b.bookedBy}`}
                            >
                              <button
                                type="button"
                                className={[
                                  'kv-block',
                                  b.enterpriseName ? 'kv-mine' : '',
                                  b.status === 'cancelled' ? 'kv-cancelled' : '',
                                  `${b.endsAt}` < `${today} 00:00` ? 'kv-past' : '',
                                ].join(' ')}
                                onClick={() => setOpen(b)}
                                data-testid="venue-block"
                              >
                                <span className="kv-block-time">{timeSpan(b)}</span>
                                <span className="kv-block-subject">{b.subject}</span>
                              </button>
                            </Tooltip>
                          ))}
                          {bookable ? (
                            <button
                              type="button"
                              className="kv-add"
                              onClick={() => setCreating({ roomId: r.id, date: d.date })}
                              aria-label={`预约${r.name} ${d.date}`}
                              data-testid={`venue-add-${r.name}-${d.date}`}
                            >
                              ＋ 预约
                            </button>
                          ) : null}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {!canBook ? (
          <Alert
            style={{ marginTop: 12 }}
            type="info"
            showIcon
            title="开发者账号只能查看预约，不能预约、改期或取消。"
          />
        ) : null}
      </Card>
      <BookingDrawer booking={current} rooms={rooms.data?.rooms ?? []} onClose={() => setOpen(null)} />
      <NewBookingDialog target={creating} rooms={rooms.data?.rooms ?? []} onClose={() => setCreating(null)} />
    </PageFrame>
  );
}
