import { type ApiBody, MATERIAL_CITY_NAMES, type MaterialPrice } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useEffect, useState } from 'react';
import {
  materialClassesQuery,
  materialCountiesQuery,
  materialInfoQuery,
  materialPeriodsQuery,
} from '../../api/material';
import { Breadcrumb, Empty, ErrorState, KeywordForm, Pagination, PortalFrame, SkeletonLines } from '../portal';
import './material.css';

// the chart (ECharts) arrives only when a history is opened
const MaterialTrend = lazy(() => import('./MaterialTrend'));

type Trend = ApiBody<'materialHistory'> & { title: string };

/**
 * 材料信息价 `/materialPrices` for anyone (a public path, linked from the portal's navigation): the published prices of
 * a city's period — the current one unless another is chosen — by county and classification, searched by name or
 * code, each material's price history in a side panel. Light page: plain React in the portal frame, no UI kit.
 */
export default function MaterialPublicPage() {
  const [city, setCity] = useState('太原市');
  const [period, setPeriod] = useState('');
  const [county, setCounty] = useState('');
  const [classification, setClassification] = useState('');
  const [keyword, setKeyword] = useState('');
  const [keyWord, setKeyWord] = useState('');
  const [paging, setPaging] = useState({ pageNum: 1, pageSize: 20 });
  const [trend, setTrend] = useState<Trend | null>(null);
  const scope = { city, period: period || undefined };
  const periods = useQuery(materialPeriodsQuery(city));
  const counties = useQuery(materialCountiesQuery(scope));
  const classes = useQuery(materialClassesQuery(scope));
  const info = useQuery(
    materialInfoQuery({
      ...scope,
      county: county || undefined,
      classification: classification || undefined,
      keyWord: keyWord || undefined,
      ...paging,
    }),
  );
  const reset = (f: () => void) => {
    f();
    setPaging((p) => ({ ...p, pageNum: 1 }));
  };
  const search = (e: FormEvent) => {
    e.preventDefault();
    reset(() => setKeyWord(keyword.trim()));
  };
  useEffect(() => {
    if (!trend) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setTrend(null);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [trend]);
  const current = info.data?.period;

  return (
    <PortalFrame>
      <div className="kp-container kp-page">
        <Breadcrumb items={[{ label: '首页', to: '/' }, { label: '材料信息价' }]} />
        <section className="kp-card" data-testid="material-public">
          <h1 className="kv-title">{current ? `${current.city}${current.label}建设工程材料信息价` : '材料信息价'}</h1>
          <div className="km-filters">
            <select
              aria-label="城市"
              value={city}
              onChange={(e) =>
                reset(() => {
                  setCity(e.target.value);
                  setPeriod('');
                  setCounty('');
                })
              }
              data-testid="mp-city"
            >
              {MATERIAL_CITY_NAMES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
            <select
              aria-label="期次"
              value={period}
              onChange={(e) => reset(() => setPeriod(e.target.value))}
              data-testid="mp-period"
            >
              <option value="">当前期次</option>
              {(periods.data ?? []).map((p) => (
                <option key={p.id} value={p.period}>
                  {p.label}
                </option>
              ))}
            </select>
            <select
              aria-label="区县"
              value={county}
              onChange={(e) => reset(() => setCounty(e.target.value))}
              data-testid="mp-county"
            >
              <option value="">全部区县</option>
              {(counties.data ?? []).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.value}
                </option>
              ))}
            </select>
            <select
              aria-label="分类"
              value={classification}
              onChange={(e) => reset(() => setClassification(e.target.value))}
              data-testid="mp-class"
            >
              <option value="">全部分类</option>
              {(classes.data ?? []).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.value}（{o.count}）
                </option>
              ))}
            </select>
            <KeywordForm
              className="km-keyword"
              placeholder="材料名称或编码"
              value={keyword}
              onChange={setKeyword}
              onSubmit={search}
              onReset={() =>
                reset(() => {
                  setKeyword('');
                  setKeyWord('');
                  setCounty('');
                  setClassification('');
                })
              }
            />
          </div>
          {info.isPending ? (
            <SkeletonLines rows={8} />
          ) : info.isError ? (
            <ErrorState onRetry={() => void info.refetch()} />
          ) : info.data.records.length === 0 ? (
            <Empty text={info.data.period ? '暂无符合条件的材料' : '该城市暂无已发布的材料信息价'} />
          ) : (
            <>
              <div className="km-scroll">
                <PriceTable rows={info.data.records} onTrend={(r) => setTrend({ ...trendOf(r) })} />
              </div>
              <Pagination
                total={info.data.total}
                totalLabel={info.data.capped ? `${info.data.total}+` : undefined}
                pageNum={paging.pageNum}
                pageSize={paging.pageSize}
                onChange={(pageNum, pageSize) => setPaging({ pageNum, pageSize })}
              />
            </>
          )}
        </section>
      </div>
      {trend ? (
        <div className="km-drawer-back">
          <button type="button" className="km-drawer-shade" aria-label="关闭价格走势" onClick={() => setTrend(null)} />
          <aside className="km-drawer" role="dialog" aria-modal="true" aria-label="价格走势" data-testid="mp-trend">
            <div className="km-drawer-head">
              <h2>价格走势：{trend.title}</h2>
              <button type="button" className="ks-btn" onClick={() => setTrend(null)} data-testid="mp-trend-close">
                关闭
              </button>
            </div>
            <Suspense fallback={<p className="km-muted">加载中…</p>}>
              <MaterialTrend
                material={{ city: trend.city, county: trend.county, code: trend.code, spec: trend.spec }}
              />
            </Suspense>
          </aside>
        </div>
      ) : null}
    </PortalFrame>
  );
}

const trendOf = (r: MaterialPrice): Trend => ({
  city: r.city,
  county: r.county,
  code: r.code,
  spec: r.spec,
  title: `${r.name} ${r.spec}（${r.county}）`,
});

function PriceTable({ rows, onTrend }: { rows: MaterialPrice[]; onTrend: (r: MaterialPrice) => void }) {
  return (
    <table className="km-table" data-testid="mp-table">
      <thead>
        <tr>
          <th scope="col">材料编码</th>
          <th scope="col">材料名称</th>
          <th scope="col">规格型号</th>
          <th scope="col">单位</th>
          <th scope="col">除税价（元）</th>
          <th scope="col">含税价（元）</th>
          <th scope="col">区县</th>
          <th scope="col">分类</th>
          <th scope="col">操作</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
            <td>{r.code}</td>
            <td>{r.name}</td>
            <td>{r.spec}</td>
            <td>{r.unit}</td>
            <td className="km-num">{r.priceEx}</td>
            <td className="km-num">{r.priceIn}</td>
            <td>{r.county}</td>
            <td>{r.classification}</td>
            <td>
              <button type="button" className="km-link" onClick={() => onTrend(r)} data-testid={`mp-trend-${r.id}`}>
                价格走势
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
