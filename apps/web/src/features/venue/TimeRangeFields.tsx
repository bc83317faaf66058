import { addDays, appToday, VENUE_BOOK_AHEAD_DAYS, type VenueRoom, venueTimeMarks } from '@ks/contracts';
import { DatePicker, Form, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { roomLabel } from './calendar';

/** The values of a booking's time: a room, a day and the half-hour marks of its start and end. */
export interface SlotValues {
  roomId?: string;
  date?: Dayjs;
  start?: string;
  end?: string;
}

const MARKS = venueTimeMarks();

/** The wall-clock range of the form's values (YYYY-MM-DD HH:mm), or null while incomplete. */
export function rangeOf(v: SlotValues): { startsAt: string; endsAt: string } | null {
  if (!v.date || !v.start || !v.end) return null;
  const d = v.date.format('YYYY-MM-DD');
  return { startsAt: `${d} ${v.start}`, endsAt: `${d} ${v.end}` };
}

/** Days one may pick: today through the booking horizon. */
export function outsideHorizon(d: Dayjs): boolean {
  const s = d.format('YYYY-MM-DD');
  const today = appToday();
  return s < today || s > addDays(today, VENUE_BOOK_AHEAD_DAYS);
}

/** 场地 · 日期 · 开始 · 结束, as form items of an antd Form (the form's values are SlotValues). */
export function TimeRangeFields({ rooms, inline = false }: { rooms: VenueRoom[]; inline?: boolean }) {
  const start = Form.useWatch<string | undefined>('start');
  const style = inline ? { marginBottom: 12 } : undefined;
  return (
    <>
      <Form.Item name="roomId" label="场地" rules={[{ required: true, message: '请选择场地' }]} style={style}>
        <Select
          data-testid="venue-room"
          placeholder="请选择场地"
          options={rooms.filter((r) => r.enabled).map((r) => ({ value: r.id, label: roomLabel(r) }))}
          showSearch={{ optionFilterProp: 'label' }}
        />
      </Form.Item>
      <Form.Item name="date" label="日期" rules={[{ required: true, message: '请选择日期' }]} style={style}>
        <DatePicker
          data-testid="venue-date"
          disabledDate={outsideHorizon}
          style={{ width: '100%' }}
          allowClear={false}
        />
      </Form.Item>
      <Form.Item label="时段" required style={style}>
        <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          <Form.Item name="start" noStyle rules={[{ required: true, message: '请选择开始时间' }]}>
            <Select
              data-testid="venue-start"
              placeholder="开始"
              showSearch
              style={{ flex: 1 }}
              options={MARKS.slice(0, -1).map((m) => ({ value: m, label: m }))}
            />
          </Form.Item>
          <span>至</span>
          <Form.Item
            name="end"
            noStyle
            dependencies={['start']}
            rules={[
              { required: true, message: '请选择结束时间' },
              ({ getFieldValue }) => ({
                validator: (_, v?: string) =>
                  !v || !getFieldValue('start') || v > getFieldValue('start')
                    ? Promise.resolve()
                    : Promise.reject(new Error('结束时间须晚于开始时间')),
              }),
            ]}
          >
            <Select
              data-testid="venue-end"
              placeholder="结束"
              showSearch
              style={{ flex: 1 }}
              options={MARKS.slice(1)
                .filter((m) => !start || m > start)
                .map((m) => ({ value: m, label: m }))}
            />
          </Form.Item>
        </div>
      </Form.Item>
    </>
  );
}
