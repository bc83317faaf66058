import { addDays, appToday, VENUE_HOURS, type VenueAvailability, venueTimeMarks, weekStartOf } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Breadcrumb, Empty, ErrorState, PortalFrame, SkeletonLines } from '../portal';
import { availabilityQuery } from './api';
import { barPlace, cellOf, timeSpan, weekDays, weekLabel } from './calendar';
import './venue.css';

export const PUBLIC_NOTE = `开放时间 ${VENUE_HOURS.open}–${VENUE_HOURS.close}，以半小时为单位预约。此处仅公示各场地已占用的时段，不公示预约单位、预约人与事由。`;

/**
 * 场地预约 `/venue` for anyone (a public path): the rooms of the trading centre × the days of a week, each cell a bar of
 * the opening hours with the busy slots and their times. The server answers rooms and busy slots only — nobody's name.
 * Light page: plain React in the portal frame, no UI kit.
 */
export default function VenuePublicPage() {
  const [params, setParams] = useSearchParams();
  const today = appToday();
  const asked = params.get('week');
  const monday = weekStartOf(asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) ? asked : today);
  const { data, isPending, isError, refetch, isFetching } = useQuery(availabilityQuery(monday, 7));
  const go = (date: string) => setParams(date === weekStartOf(today) ? {} : { week: date });

  return (
    <PortalFrame>
      <div className="kp-container kp-page">
        <Breadcrumb items={[{ label: '首页', to: '/' }, { label: '场地预约' }]} />
        <section className="kp-card" data-testid="venue-public">
          <div className="kv-head">
            <h1 className="kv-title">场地占用情况</h1>
            <nav className="kv-nav" aria-label="切换周">
              <button type="button" className="ks-btn" onClick={() => go(addDays(monday, -7))} data-testid="venue-prev">
                上一周
              </button>
              <button type="button" className="ks-btn" onClick={() => go(weekStartOf(today))} data-testid="venue-this">
                本周
              </button>
              <button type="button" className="ks-btn" onClick={() => go(addDays(monday, 7))} data-testid="venue-next">
                下一周
              </button>
              <span className="kv-week" data-testid="venue-week" aria-live="polite">
                {weekLabel(monday)}
                {isFetching && !isPending ? ' · 更新中…' : ''}
              </span>
            </nav>
          </div>
          <p className="kv-note">{PUBLIC_NOTE}</p>
          {isPending ? (
            <SkeletonLines rows={7} />
          ) : isError ? (
            <ErrorState onRetry={() => void refetch()} />
          ) : data.rooms.length === 0 ? (
            <Empty text="暂无可预约的场地" />
          ) : (
            <AvailabilityGrid data={data} monday={monday} today={today} />
          )}
        </section>
      </div>
    </PortalFrame>
  );
}

function AvailabilityGrid({ data, monday, today }: { data: VenueAvailability; monday: string; today: string }) {
  const days = weekDays(monday, today);
  const marks = venueTimeMarks().filter((m) => m.endsWith(':00'));
  return (
    <div className="kv-scroll">
      <table className="kv-grid" data-testid="venue-grid">
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
          {data.rooms.map((r) => (
            <tr key={r.id} data-testid={`venue-row-${r.name}`}>
              <th scope="row" className="kv-room-col">
                <div className="kv-room-name">{r.name}</div>
                <div className="kv-room-meta">
                  {r.kind}
                  {r.capacity === null ? '' : ` · ${r.capacity} 人`}
                </div>
                {r.location ? <div className="kv-room-meta">{r.location}</div> : null}
              </th>
              {days.map((d) => {
                const busy = cellOf(data.busy, r.id, d.date);
                return (
                  <td
                    key={d.date}
                    className={d.isToday ? 'kv-today' : undefined}
                    data-testid={`venue-cell-${r.name}-${d.date}`}
                  >
                    <div className="kv-bar" title={`${VENUE_HOURS.open}–${VENUE_HOURS.close}`}>
                      {marks.slice(1, -1).map((m) => (
                        <span
                          key={m}
                          className="kv-tick"
                          style={{ left: `${barPlace({ startsAt: ` ${m}`, endsAt: ` ${m}` }).left}%` }}
                        />
                      ))}
                      {busy.map((b) => {
                        const p = barPlace(b);
                        return (
                          <span
                            key={b.startsAt}
                            className="kv-busy"
                            style={{ left: `${p.left}%`, width: `${p.width}%` }}
                          />
                        );
                      })}
                    </div>
                    {busy.length === 0 ? (
                      <div className="kv-free">全天空闲</div>
                    ) : (
                      <ul className="kv-slots">
                        {busy.map((b) => (
                          <li key={b.startsAt} data-testid="venue-busy">
                            {timeSpan(b)} 已占用
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
