import type { ApiBody } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { materialTrendQuery } from '../../api/material';
import { Chart } from '../../components/charts/Chart';
import './material.css';

const yuan = (v: number) => `${v.toFixed(2)} 元`;

/**
 * A material's prices across its city's published periods: a line chart (含税价, 除税价) and the numbers under it.
 * Loaded on its own (React.lazy) by both pages, so ECharts arrives only when a history is opened.
 */
export default function MaterialTrend({ material }: { material: ApiBody<'materialHistory'> }) {
  const { data, isPending, isError, refetch } = useQuery(materialTrendQuery(material));
  if (isPending) return <p className="km-muted">加载中…</p>;
  if (isError) {
    return (
      <p className="km-muted">
        价格走势加载失败，
        <button type="button" className="km-link" onClick={() => void refetch()}>
          重试
        </button>
      </p>
    );
  }
  if (!data.material || data.points.length === 0) return <p className="km-muted">暂无该材料的历史价格</p>;
  const m = data.material;
  const categories = data.points.map((p) => p.label);
  return (
    <div data-testid="material-trend">
      <p className="km-trend-title">
        {m.name} {m.spec}（{m.code}，单位：{m.unit}）
      </p>
      <Chart
        type="line"
        label={`${m.name}${m.spec}价格走势`}
        categories={categories}
        series={[
          { name: '含税价', values: data.points.map((p) => Number(p.priceIn)) },
          { name: '除税价', values: data.points.map((p) => Number(p.priceEx)) },
        ]}
        valueFormatter={yuan}
        height={280}
        testId="material-trend-chart"
      />
      <table className="km-table km-trend-table" data-testid="material-trend-table">
        <thead>
          <tr>
            <th scope="col">期次</th>
            <th scope="col">除税价（元）</th>
            <th scope="col">含税价（元）</th>
            <th scope="col">环比</th>
          </tr>
        </thead>
        <tbody>
          {data.points.map((p, i) => {
            const prev = i > 0 ? Number(data.points[i - 1]!.priceIn) : null;
            const change = prev ? ((Number(p.priceIn) - prev) / prev) * 100 : null;
            return (
              <tr key={p.period}>
                <td>{p.label}</td>
                <td className="km-num">{p.priceEx}</td>
                <td className="km-num">{p.priceIn}</td>
                <td className="km-num">{change === null ? '—' : `${change > 0 ? '+' : ''}${change.toFixed(2)}%`}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
