import type { WeatherIcon } from '@ks/contracts';
import type { ReactNode } from 'react';

/**
 * The weather icons of the widget (screen 11): small SVG drawings, one per icon of the contracts' table
 * (`weatherIconOf` maps AMap's Chinese weather names onto them — 晴, 多云, 阴, 小雨, 中雨, 大雨, 暴雨, 雷阵雨, 雪, 雾, 霾,
 * 沙尘 …). Colours work on the dark header and on the light popover alike.
 */
const SUN = '#f7b500';
const CLOUD = '#c9d3e0';
const DARK_CLOUD = '#8d99aa';
const RAIN = '#3a8ee6';
const SNOW = '#9ed0ff';

const cloud = (fill: string, dy = 0, key = 'cloud') => (
  <path
    key={key}
    d={`M9 ${22 + dy}h14a5 5 0 0 0 .6-9.96A7 7 0 0 0 10.2 ${13.2 + dy}A4.5 4.5 0 0 0 9 ${22 + dy}z`}
    fill={fill}
    stroke="#6b7789"
    strokeWidth={0.8}
  />
);
const sun = (cx: number, cy: number, r: number, color = SUN) => (
  <g key="sun">
    {[0, 45, 90, 135, 180, 225, 270, 315].map((a) => {
      const rad = (a * Math.PI) / 180;
      return (
        <line
          key={a}
          x1={cx + Math.cos(rad) * (r + 2)}
          y1={cy + Math.sin(rad) * (r + 2)}
          x2={cx + Math.cos(rad) * (r + 4.5)}
          y2={cy + Math.sin(rad) * (r + 4.5)}
          stroke={color}
          strokeWidth={1.8}
          strokeLinecap="round"
        />
      );
    })}
    <circle cx={cx} cy={cy} r={r} fill={color} />
  </g>
);
const drops = (n: number, color = RAIN) =>
  Array.from({ length: n }, (_, i) => 16 - (n - 1) * 2.5 + i * 5).map((x) => (
    <line key={`d${x}`} x1={x} y1={24} x2={x - 1.5} y2={29} stroke={color} strokeWidth={1.8} strokeLinecap="round" />
  ));
const flake = (x: number, y: number, key: string) => (
  <g key={key} stroke={SNOW} strokeWidth={1.4} strokeLinecap="round">
    <line x1={x - 2.5} y1={y} x2={x + 2.5} y2={y} />
    <line x1={x - 1.3} y1={y - 2.2} x2={x + 1.3} y2={y + 2.2} />
    <line x1={x + 1.3} y1={y - 2.2} x2={x - 1.3} y2={y + 2.2} />
  </g>
);
const lines = (color: string, dashed = false) =>
  [10, 15, 20, 25].map((y, i) => (
    <line
      key={y}
      x1={i % 2 ? 7 : 4}
      y1={y}
      x2={i % 2 ? 28 : 25}
      y2={y}
      stroke={color}
      strokeWidth={2}
      strokeLinecap="round"
      strokeDasharray={dashed ? '2 3' : undefined}
    />
  ));

const DRAWINGS: Record<WeatherIcon, () => ReactNode> = {
  sunny: () => sun(16, 16, 6),
  'partly-cloudy': () => [sun(11, 11, 4.5), cloud(CLOUD, 3)],
  cloudy: () => [sun(10, 10, 4), cloud(CLOUD, 2)],
  overcast: () => [cloud(DARK_CLOUD, 0, 'back'), cloud(CLOUD, 3)],
  'light-rain': () => [cloud(CLOUD, -3), ...drops(1)],
  rain: () => [cloud(CLOUD, -3), ...drops(2)],
  'heavy-rain': () => [cloud(DARK_CLOUD, -3), ...drops(3)],
  storm: () => [cloud(DARK_CLOUD, -3), ...drops(4, '#1f5fbf')],
  thunder: () => [cloud(DARK_CLOUD, -3), <path key="bolt" d="M17 19l-4 6h3l-2 5 6-7h-3l2-4z" fill={SUN} />],
  sleet: () => [
    cloud(CLOUD, -3),
    ...drops(1).map((d) => (
      <g key="r" transform="translate(-4 0)">
        {d}
      </g>
    )),
    flake(20, 26.5, 'f'),
  ],
  snow: () => [cloud(CLOUD, -3), flake(11.5, 26.5, 'a'), flake(20.5, 26.5, 'b')],
  fog: () => lines('#9aa5b4'),
  haze: () => lines('#b59a6a', true),
  dust: () => [
    <path
      key="s1"
      d="M4 12c6-4 12 4 18 0s6 2 6 2"
      fill="none"
      stroke="#c28b3c"
      strokeWidth={2}
      strokeLinecap="round"
    />,
    <path key="s2" d="M4 18c6-4 12 4 18 0" fill="none" stroke="#c28b3c" strokeWidth={2} strokeLinecap="round" />,
    <path key="s3" d="M8 24c6-4 12 4 18 0" fill="none" stroke="#c28b3c" strokeWidth={2} strokeLinecap="round" />,
  ],
  wind: () => [
    <path
      key="w1"
      d="M4 12h17a3.5 3.5 0 1 0-3.5-3.5"
      fill="none"
      stroke="#7fa7d6"
      strokeWidth={2}
      strokeLinecap="round"
    />,
    <path
      key="w2"
      d="M4 18h21a3.5 3.5 0 1 1-3.5 3.5"
      fill="none"
      stroke="#7fa7d6"
      strokeWidth={2}
      strokeLinecap="round"
    />,
    <path key="w3" d="M4 24h10" fill="none" stroke="#7fa7d6" strokeWidth={2} strokeLinecap="round" />,
  ],
  hot: () => sun(16, 16, 6, '#f5222d'),
  cold: () =>
    [flake(16, 16, 'c')].map((f) => (
      <g key="big" transform="translate(-16 -16) scale(2)">
        {f}
      </g>
    )),
  unknown: () => [
    <circle key="c" cx={16} cy={16} r={11} fill="none" stroke="#9aa5b4" strokeWidth={2} />,
    <text key="t" x={16} y={21} fontSize={14} textAnchor="middle" fill="#9aa5b4">
      ?
    </text>,
  ],
};

export function WeatherGlyph({ icon, size = 20, title }: { icon: WeatherIcon; size?: number; title?: string }) {
  const draw = DRAWINGS[icon] ?? DRAWINGS.unknown;
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 32 32"
      role="img"
      aria-label={title ?? icon}
      data-testid={`weather-icon-${icon}`}
      style={{ display: 'inline-block', verticalAlign: 'middle', flex: 'none' }}
    >
      {draw()}
    </svg>
  );
}
