import type { Chart } from '@ks/contracts';
import type { ReactNode } from 'react';
import { SAMPLE_LABEL } from './previews';

/** A small chart drawn with plain SVG from illustrative sample numbers (no chart library). */

export const SAMPLE_VALUES = [12, 19, 8, 15, 10] as const;
const COLORS = ['#1362fc', '#36cfc9', '#faad14', '#f5222d', '#722ed1'];
const W = 320;
const H = 180;
const PAD = { top: 16, right: 12, bottom: 28, left: 32 };

export function sampleCategories(dimension: string): string[] {
  const base = dimension || '类别';
  return SAMPLE_VALUES.map((_, i) => `${base}${i + 1}`);
}

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

export function ChartPreview({ chart }: { chart: Partial<Chart> }) {
  const type = chart.type ?? 'bar';
  const cats = sampleCategories(chart.dimension ?? '');
  const values = [...SAMPLE_VALUES];
  const max = Math.max(...values);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = plotW / values.length;
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const x = (i: number) => PAD.left + step * i + step / 2;

  let body: ReactNode;
  if (type === 'pie') {
    const total = values.reduce((a, b) => a + b, 0);
    let a = 0;
    body = (
      <g data-testid="chart-pie">
        {values.map((v, i) => {
          const a0 = a;
          a += (v / total) * Math.PI * 2;
          return <path key={cats[i]} d={arcPath(110, H / 2, 64, a0, a)} fill={COLORS[i % COLORS.length]} />;
        })}
        {cats.map((c, i) => (
          <g key={c} transform={`translate(200, ${34 + i * 24})`}>
            <rect width={10} height={10} fill={COLORS[i % COLORS.length]} />
            <text x={16} y={9} fontSize={11} fill="#4b5563">
              {c} {values[i]}
            </text>
          </g>
        ))}
      </g>
    );
  } else {
    const axes = (
      <g stroke="#d9dde6">
        <line x1={PAD.left} y1={PAD.top + plotH} x2={W - PAD.right} y2={PAD.top + plotH} />
        <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={PAD.top + plotH} />
      </g>
    );
    const labels = cats.map((c, i) => (
      <text key={c} x={x(i)} y={H - 10} fontSize={10} textAnchor="middle" fill="#6b7385">
        {c.length > 6 ? `${c.slice(0, 5)}…` : c}
      </text>
    ));
    const ticks = [0, max].map((t) => (
      <text key={t} x={PAD.left - 4} y={y(t) + 3} fontSize={10} textAnchor="end" fill="#6b7385">
        {t}
      </text>
    ));
    body =
      type === 'line' ? (
        <g data-testid="chart-line">
          {axes}
          <polyline
            fill="none"
            stroke={COLORS[0]}
            strokeWidth={2}
            points={values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}
          />
          {values.map((v, i) => (
            <circle key={cats[i]} cx={x(i)} cy={y(v)} r={3} fill="#fff" stroke={COLORS[0]} strokeWidth={2} />
          ))}
          {labels}
          {ticks}
        </g>
      ) : (
        <g data-testid="chart-bar">
          {axes}
          {values.map((v, i) => (
            <rect
              key={cats[i]}
              x={x(i) - step * 0.3}
              y={y(v)}
              width={step * 0.6}
              height={PAD.top + plotH - y(v)}
              fill={COLORS[0]}
              rx={2}
            />
          ))}
          {labels}
          {ticks}
        </g>
      );
  }

  return (
    <figure style={{ margin: 0 }} data-testid="chart-preview">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        style={{ maxWidth: W, display: 'block', background: '#fafbfc', borderRadius: 6 }}
        role="img"
        aria-label={`${chart.title || '图表'}预览（${SAMPLE_LABEL}）`}
      >
        {body}
      </svg>
      <figcaption style={{ fontSize: 12, color: '#ad6800', marginTop: 4 }} data-testid="chart-sample-label">
        {SAMPLE_LABEL}：图中数字仅用于示意，不是节点的实际统计
      </figcaption>
    </figure>
  );
}
