import {
  WEATHER_NOT_CONFIGURED,
  WEATHER_UPSTREAM_FAILED,
  type Weather,
  type WeatherCast,
  weatherIconOf,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Popover, Spin, Typography } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { weatherQuery } from '../../api/feedback';
import { isApiError } from '../../api/request';
import { WeatherGlyph } from './WeatherGlyph';

type Live = Extract<Weather, { configured: true }>;

const COMPASS = new Set(['东', '南', '西', '北', '东北', '东南', '西北', '西南']);
/** AMap's wind: a compass direction becomes 西北风 (无风向, 旋转不定 stay as they are); "≤3" and "4" are forces in 级. */
export const windText = (direction: string, power: string) =>
  `${COMPASS.has(direction) ? `${direction}风` : direction}${power ? ` ${power}级` : ''}`.trim() || '—';

/** 2026-11-27 → 11-27 */
const shortDate = (d: string) => (/^\d{4}-\d{2}-\d{2}$/.test(d) ? d.slice(5) : d);

function ForecastRow({ cast }: { cast: WeatherCast }) {
  return (
    <div
      data-testid="weather-forecast-row"
      style={{
        display: 'grid',
        gridTemplateColumns: '92px 24px 1fr 96px',
        alignItems: 'center',
        gap: 8,
        padding: '4px 0',
      }}
    >
      <span style={{ color: '#4b5563' }}>
        {shortDate(cast.date)} {cast.week}
      </span>
      <WeatherGlyph icon={cast.dayweatherIcon ?? weatherIconOf(cast.dayweather)} size={20} title={cast.dayweather} />
      <span>
        {cast.dayweather}
        <span style={{ marginInlineStart: 8, color: '#1f2937' }} data-testid="weather-forecast-temp">
          {cast.nighttemp}~{cast.daytemp}°C
        </span>
      </span>
      <span style={{ color: '#6b7385', textAlign: 'right' }}>{windText(cast.daywind, cast.daypower)}</span>
    </div>
  );
}

/** The popover's content: the live weather, then the recent forecast (screen 11). */
export function WeatherPanel({ weather }: { weather: Live }) {
  const facts: [string, string, string][] = [
    ['天气', weather.weather, 'weather-weather'],
    ['温度', `${weather.temperature}°C`, 'weather-temperature'],
    ['风向风力', windText(weather.winddirection, weather.windpower), 'weather-wind'],
    ['湿度', `${weather.humidity}%`, 'weather-humidity'],
  ];
  return (
    <div style={{ width: 340 }} data-testid="weather-panel">
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, marginBottom: 8 }}>
        <WeatherGlyph icon={weather.dayweatherIcon} size={44} title={weather.weather} />
        <div>
          <div style={{ fontSize: 16, fontWeight: 600 }} data-testid="weather-city">
            {weather.city}
          </div>
          <div style={{ fontSize: 12, color: '#8a93a3' }}>发布时间 {weather.reporttime || '—'}</div>
        </div>
        <div style={{ marginInlineStart: 'auto', fontSize: 28, fontWeight: 300 }}>{weather.temperature}°C</div>
      </div>
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '4px 16px', marginBottom: 8 }}>
        {facts.map(([label, value, id]) => (
          <div key={label} style={{ display: 'flex', justifyContent: 'space-between' }}>
            <span style={{ color: '#8a93a3' }}>{label}</span>
            <span data-testid={id}>{value}</span>
          </div>
        ))}
      </div>
      <Typography.Text strong style={{ display: 'block', borderTop: '1px solid #eef0f4', paddingTop: 8 }}>
        近期预报
      </Typography.Text>
      {weather.forecasts.length ? (
        weather.forecasts.map((c) => <ForecastRow key={c.date} cast={c} />)
      ) : (
        <Typography.Text type="secondary">暂无预报</Typography.Text>
      )}
    </div>
  );
}

/**
 * The header's weather (screen 11): the icon, temperature and city of the configured city; hovering shows the
 * popover with the details and the forecast. Without a key on the server it says 天气服务未配置 — nothing is invented.
 */
export function WeatherWidget({ color, buttonStyle }: { color: string; buttonStyle: CSSProperties }) {
  const { data, error, isPending } = useQuery(weatherQuery);
  const live = data?.configured ? data : null;

  let content: ReactNode;
  if (isPending) content = <Spin size="small" />;
  else if (live) content = <WeatherPanel weather={live} />;
  else if (data && !data.configured) {
    content = <span data-testid="weather-not-configured">{data.message || WEATHER_NOT_CONFIGURED}</span>;
  } else {
    content = (
      <span data-testid="weather-failed">
        {isApiError(error) && error.message ? error.message : WEATHER_UPSTREAM_FAILED}
      </span>
    );
  }

  return (
    <Popover content={content} trigger={['hover', 'click']} placement="bottomRight" title={live ? null : '天气'}>
      <button
        type="button"
        aria-label="天气"
        data-testid="weather-widget"
        style={{ ...buttonStyle, color, opacity: live ? 1 : 0.75 }}
      >
        <WeatherGlyph icon={live ? live.dayweatherIcon : 'unknown'} size={22} title={live?.weather ?? '天气'} />
        {live ? (
          <span data-testid="weather-summary" style={{ whiteSpace: 'nowrap', fontSize: 13 }}>
            {live.temperature}°C {live.city}
          </span>
        ) : data && !data.configured ? (
          <span style={{ whiteSpace: 'nowrap', fontSize: 12 }}>{WEATHER_NOT_CONFIGURED}</span>
        ) : null}
      </button>
    </Popover>
  );
}
