import type { ReactNode } from 'react';

/**
 * Small charts drawn with plain SVG (no chart library): bars (grouped when there are several series), lines, and a pie
 * of one series. The configuration pages preview a chart with it from sample numbers, the credit analysis page draws
 * real statistics. Each drawing says what it shows to screen readers (the numbers as text) and scales to its box.
 */

export type SvgChartType = 'bar' | 'line' | 'pie';

export interface ChartSeries {
  name: string;
  values: readonly number[];
  color?: string;
}

export const CHART_COLORS = ['#1362fc', '#36cfc9', '#faad14', '#f5222d', '#722ed1', '#52c41a', '#eb2f96', '#8c8c8c'];

/** The SVG path of one pie slice from angle a0 to a1 (radians, 0 at twelve o'clock, clockwise). */
export function arcPath(cx: number, cy: number, r: number, a0: number, a1: number): string {
  const x0 = cx + r * Math.sin(a0);
  const y0 = cy - r * Math.cos(a0);
  const x1 = cx + r * Math.sin(a1);
  const y1 = cy - r * Math.cos(a1);
  const large = a1 - a0 > Math.PI ? 1 : 0;
  const f = (n: number) => n.toFixed(2);
  return `M${f(cx)},${f(cy)} L${f(x0)},${f(y0)} A${r},${r} 0 ${large} 1 ${f(x1)},${f(y1)} Z`;
}

/**
 * The value axis of numbers from 0 to `max`: `count` + 1 evenly spaced ticks from 0 to a round top, the step 1, 2, 2.5
 * or 5 times a power of ten (whole numbers only when `integer`, as for counts).
 */
export function niceTicks(max: number, count = 4, integer = false): number[] {
  const raw = Math.max(max, 0) / count;
  let step = 1;
  if (raw > 0) {
    const pow = 10 ** Math.floor(Math.log10(raw));
    const steps = [1, 2, 2.5, 5, 10].map((m) => m * pow).filter((s) => !integer || Number.isInteger(s));
    step = steps.find((s) => s >= raw - 1e-9) ?? 10 * pow;
    if (integer) step = Math.max(1, step);
  }
  return Array.from({ length: count + 1 }, (_, i) => +(i * step).toFixed(6));
}

/** Percent of a part, one decimal (0 when the whole is 0). */
export function percent(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '0%';
}

function describe(type: SvgChartType, categories: readonly string[], series: readonly ChartSeries[]): string {
  if (type === 'pie') {
    const s = series[0];
    const total = (s?.values ?? []).reduce((a, b) => a + b, 0);
    return categories.map((c, i) => `${c} ${s?.values[i] ?? 0}（${percent(s?.values[i] ?? 0, total)}）`).join('，');
  }
  return series.map((s) => `${s.name}：${categories.map((c, i) => `${c} ${s.values[i] ?? 0}`).join('，')}`).join('；');
}

const colorOf = (s: ChartSeries | undefined, i: number) => s?.color ?? CHART_COLORS[i % CHART_COLORS.length];
const short = (c: string, n: number) => (c.length > n ? `${c.slice(0, n - 1)}…` : c);

export function SvgChart({
  type,
  categories,
  series,
  label,
  width = 320,
  height = 180,
  showValues = false,
  emptyText = '暂无数据',
  background = '#fafbfc',
  testId,
}: {
  type: SvgChartType;
  categories: readonly string[];
  /** bar, line: one or more series over the categories; pie: the first series, one slice per category */
  series: readonly ChartSeries[];
  /** what the chart is, for screen readers (the numbers are added) */
  label: string;
  width?: number;
  height?: number;
  /** numbers over bars and points (pie legends always carry them) */
  showValues?: boolean;
  emptyText?: string;
  background?: string;
  testId?: string;
}) {
  const W = width;
  const H = height;
  const many = series.length > 1;
  const legendH = many && type !== 'pie' ? 20 : 0;
  const PAD = { top: 16 + legendH, right: 12, bottom: 28, left: 36 };
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const n = categories.length;
  const step = n > 0 ? plotW / n : plotW;
  const all = series.flatMap((s) => s.values);
  const ticks = niceTicks(Math.max(0, ...all), 4, all.every(Number.isInteger));
  const top = ticks.at(-1) || 1;
  const y = (v: number) => PAD.top + plotH - (Math.max(0, v) / top) * plotH;
  const x = (i: number) => PAD.left + step * i + step / 2;
  const maxLabel = Math.max(2, Math.floor(step / 11));

  let body: ReactNode;
  if (type === 'pie') {
    const values = series[0]?.values ?? [];
    const total = values.reduce((a, b) => a + Math.max(0, b), 0);
    const r = Math.min(H / 2 - 16, W * 0.22);
    const cx = r + 20;
    const cy = H / 2;
    let a = 0;
    const slices: ReactNode[] = [];
    values.forEach((v, i) => {
      if (v <= 0 || total <= 0) return;
      const a0 = a;
      a += (v / total) * Math.PI * 2;
      const fill = CHART_COLORS[i % CHART_COLORS.length];
      slices.push(
        v === total ? (
          <circle key={categories[i] ?? i} cx={cx} cy={cy} r={r} fill={fill} />
        ) : (
          <path key={categories[i] ?? i} d={arcPath(cx, cy, r, a0, a)} fill={fill} stroke="#fff" strokeWidth={1} />
        ),
      );
    });
    const rowH = Math.min(24, (H - 16) / Math.max(1, n));
    const legendTop = (H - rowH * n) / 2 + 2;
    body = (
      <g data-testid="chart-pie">
        {total > 0 ? slices : <circle cx={cx} cy={cy} r={r} fill="#eef0f4" data-testid="chart-pie-empty" />}
        {total <= 0 ? (
          <text x={cx} y={cy + 4} fontSize={11} textAnchor="middle" fill="#8a93a3">
            {emptyText}
          </text>
        ) : null}
        {categories.map((c, i) => (
          <g key={c} transform={`translate(${cx + r + 24}, ${legendTop + i * rowH})`}>
            <rect width={10} height={10} rx={2} fill={CHART_COLORS[i % CHART_COLORS.length]} />
            <text x={16} y={9} fontSize={11} fill="#4b5563">
              {short(c, 8)} {values[i] ?? 0}
              {total > 0 ? <tspan fill="#8a93a3"> {percent(values[i] ?? 0, total)}</tspan> : null}
            </text>
          </g>
        ))}
      </g>
    );
  } else {
    const grid = (
      <g>
        {ticks.map((t) => (
          <g key={t}>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(t)}
              y2={y(t)}
              stroke={t === 0 ? '#c9ced8' : '#eceff4'}
              strokeDasharray={t === 0 ? undefined : '3 3'}
            />
            <text x={PAD.left - 4} y={y(t) + 3} fontSize={10} textAnchor="end" fill="#6b7385">
              {t}
            </text>
          </g>
        ))}
      </g>
    );
    const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(plotW / 34))));
    const labels = categories.map((c, i) =>
      i % every === 0 ? (
        <text key={c} x={x(i)} y={H - 10} fontSize={10} textAnchor="middle" fill="#6b7385">
          {short(c, maxLabel * every)}
        </text>
      ) : null,
    );
    const legend = many ? (
      <g data-testid="chart-legend">
        {series.map((s, i) => (
          <g key={s.name} transform={`translate(${PAD.left + i * 84}, 6)`}>
            <line x1={0} x2={14} y1={6} y2={6} stroke={colorOf(s, i)} strokeWidth={type === 'line' ? 2 : 8} />
            <text x={20} y={10} fontSize={11} fill="#4b5563">
              {short(s.name, 6)}
            </text>
          </g>
        ))}
      </g>
    ) : null;
    if (type === 'line') {
      body = (
        <g data-testid="chart-line">
          {grid}
          {series.map((s, si) => (
            <g key={s.name}>
              <polyline
                fill="none"
                stroke={colorOf(s, si)}
                strokeWidth={2}
                points={s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}
              />
              {s.values.map((v, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: one point per category, in order
                <g key={i}>
                  <circle cx={x(i)} cy={y(v)} r={3} fill="#fff" stroke={colorOf(s, si)} strokeWidth={2} />
                  {showValues && v > 0 ? (
                    <text x={x(i)} y={y(v) - 6} fontSize={9} textAnchor="middle" fill={colorOf(s, si)}>
                      {v}
                    </text>
                  ) : null}
                </g>
              ))}
            </g>
          ))}
          {labels}
          {legend}
        </g>
      );
    } else {
      const groupW = step * 0.6;
      const barW = groupW / Math.max(1, series.length);
      body = (
        <g data-testid="chart-bar">
          {grid}
          {series.map((s, si) =>
            s.values.map((v, i) => {
              const bx = x(i) - groupW / 2 + si * barW;
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: one bar per series and category, in order
                <g key={`${s.name}-${i}`}>
                  <rect
                    x={bx}
                    y={y(v)}
                    width={Math.max(1, barW - (many ? 1 : 0))}
                    height={PAD.top + plotH - y(v)}
                    fill={colorOf(s, si)}
                    rx={2}
                  />
                  {showValues ? (
                    <text x={bx + barW / 2} y={y(v) - 4} fontSize={10} textAnchor="middle" fill="#4b5563">
                      {v}
                    </text>
                  ) : null}
                </g>
              );
            }),
          )}
          {labels}
          {legend}
        </g>
      );
    }
  }

  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      width="100%"
      style={{ maxWidth: W, display: 'block', background, borderRadius: 6 }}
      role="img"
      aria-label={`${label}：${describe(type, categories, series)}`}
      data-testid={testId}
    >
      {body}
    </svg>
  );
}
