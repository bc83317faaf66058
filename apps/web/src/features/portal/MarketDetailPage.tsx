import { MARKET_KIND_LABELS, type MarketDetail, type MarketKind } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../api/request';
import { formatDate, formatYuan, formatYuanShort } from '../../lib/format';
import { marketDetailQuery } from './api';
import { PortalFrame } from './PortalFrame';
import { isUuid, parseMarketKind } from './query';
import { Breadcrumb, Empty, ErrorState, GradeTag, SkeletonLines, Tag } from './ui';

export const ENTITY_NOT_FOUND = '市场主体不存在';

/** Registered capital in yuan as a decimal string reads as 万元 / 亿元; any other text is shown as it is. */
export function capitalText(value: string | null): string {
  if (!value) return '—';
  if (!/^\d+(\.\d+)?$/.test(value.trim())) return value;
  const { value: v, unit } = formatYuanShort(value);
  return `${v} ${unit}`;
}

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <section className="kp-card kp-detail-section" data-testid={testId} aria-label={title}>
      <h2 className="kp-subtitle">{title}</h2>
      {children}
    </section>
  );
}

function Table<T>({
  rows,
  columns,
  testId,
}: {
  rows: T[];
  columns: { title: string; render: (row: T) => ReactNode }[];
  testId: string;
}) {
  if (rows.length === 0) return <Empty testId={`${testId}-empty`} />;
  return (
    <div className="kp-table-wrap">
      <table className="kp-table" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.title} scope="col">
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: read-only rows without ids
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.title}>{c.render(r)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Basic({ kind, basic }: { kind: MarketKind; basic: MarketDetail['basic'] }) {
  const person = kind === 'practitioner';
  const items: [string, ReactNode][] = person
    ? [
        ['姓名', basic.name],
        ['证书编号', basic.code],
        ['执业领域', basic.type || '—'],
        ['所在企业', basic.enterpriseName || '—'],
        ['所在地区', basic.region || '—'],
        ['信用等级', <GradeTag key="g" grade={basic.creditGrade} />],
        ['信用分', basic.creditScore ?? '—'],
      ]
    : [
        [kind === 'agency' ? '机构名称' : '企业名称', basic.name],
        ['统一社会信用代码', basic.code],
        [kind === 'agency' ? '机构类型' : '企业类型', basic.type || '—'],
        ['法定代表人', basic.legalPerson || '—'],
        ['注册资本', capitalText(basic.registeredCapital)],
        ['成立日期', formatDate(basic.establishedAt) || '—'],
        ['所在地区', basic.region || '—'],
        ['注册地址', basic.address || '—'],
        ['信用等级', <GradeTag key="g" grade={basic.creditGrade} />],
        ['信用分', basic.creditScore ?? '—'],
      ];
  return (
    <Section title="基本信息" testId="section-basic">
      <dl className="kp-meta kp-meta-wide">
        {items.map(([k, v]) => (
          <div key={k} className="kp-meta-item">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

function NotFound({ kind }: { kind: MarketKind }) {
  return (
    <div className="kp-card kp-result" data-testid="entity-not-found">
      <h1 className="kp-result-title">{ENTITY_NOT_FOUND}</h1>
      <p className="kp-muted">该主体可能已注销或链接有误。</p>
      <Link to={`/market-list?kind=${kind}`} className="ks-btn ks-btn-primary" data-testid="back-to-list">
        返回{MARKET_KIND_LABELS[kind]}列表
      </Link>
    </div>
  );
}

function Detail({ kind, id }: { kind: MarketKind; id: string }) {
  const { data, isPending, isError, error, refetch } = useQuery(marketDetailQuery(kind, id));
  if (isPending) {
    return (
      <div className="kp-card">
        <SkeletonLines rows={10} testId="market-detail-skeleton" />
      </div>
    );
  }
  if (isError) {
    if (isApiError(error) && (error.status === 404 || error.code === 404 || error.status === 400)) {
      return <NotFound kind={kind} />;
    }
    return (
      <div className="kp-card">
        <ErrorState onRetry={() => void refetch()} />
      </div>
    );
  }
  return (
    <div data-testid="market-detail">
      <div className="kp-card kp-detail-head">
        <h1 className="kp-article-title" data-testid="market-detail-name">
          {data.basic.name}
        </h1>
        <div className="kp-row-meta">
          <Tag>{MARKET_KIND_LABELS[kind]}</Tag>
          {data.basic.type ? <Tag tone="green">{data.basic.type}</Tag> : null}
          <GradeTag grade={data.basic.creditGrade} />
        </div>
      </div>
      <Basic kind={kind} basic={data.basic} />
      <Section title="资质信息" testId="section-qualifications">
        <Table
          testId="qualifications"
          rows={data.qualifications}
          columns={[
            { title: '资质名称', render: (q) => q.name },
            { title: '等级', render: (q) => q.level },
            { title: '证书编号', render: (q) => q.certNo },
            {
              title: '有效期至',
              render: (q) => (
                <>
                  {formatDate(q.validUntil) || '—'}
                  {q.expired ? (
                    <Tag tone="orange" testId="expired">
                      已过期
                    </Tag>
                  ) : null}
                </>
              ),
            },
          ]}
        />
      </Section>
      <Section title="业绩信息" testId="section-performances">
        <Table
          testId="performances"
          rows={data.performances}
          columns={[
            { title: '项目名称', render: (p) => p.projectName },
            { title: '承担角色', render: (p) => p.role },
            { title: '建设单位', render: (p) => p.builder ?? '—' },
            { title: '合同金额', render: (p) => formatYuan(p.amount) ?? '—' },
            { title: '完成日期', render: (p) => formatDate(p.completedAt) || '—' },
          ]}
        />
      </Section>
      <Section title="信用记录" testId="section-credit">
        <Table
          testId="credit-records"
          rows={data.creditRecords}
          columns={[
            {
              title: '类别',
              render: (c) => <Tag tone={c.kind === '不良' ? 'orange' : 'green'}>{c.kind}</Tag>,
            },
            { title: '事项', render: (c) => c.title },
            { title: '分值', render: (c) => (c.score > 0 ? `+${c.score}` : String(c.score)) },
            { title: '认定单位', render: (c) => c.issuer },
            {
              title: '有效期',
              render: (c) => (
                <>
                  {`${formatDate(c.startDate)} 至 ${c.endDate ? formatDate(c.endDate) : '长期'}`}
                  {c.expired ? (
                    <Tag tone="orange" testId="expired">
                      已失效
                    </Tag>
                  ) : null}
                </>
              ),
            },
          ]}
        />
      </Section>
    </div>
  );
}

/** 市场主体详情 `/market-details?kind=…&id=…`: basic information, qualifications, performance, credit records. */
export default function MarketDetailPage() {
  const [searchParams] = useSearchParams();
  const kind = parseMarketKind(searchParams.get('kind'));
  const id = searchParams.get('id');
  const label = MARKET_KIND_LABELS[kind];
  return (
    <PortalFrame>
      <div className="kp-container kp-page">
        <Breadcrumb
          items={[
            { label: '首页', to: '/' },
            { label: '市场主体', to: '/market' },
            { label, to: `/market-list?kind=${kind}` },
            { label: '主体详情' },
          ]}
        />
        {isUuid(id) ? <Detail kind={kind} id={id} /> : <NotFound kind={kind} />}
      </div>
    </PortalFrame>
  );
}
