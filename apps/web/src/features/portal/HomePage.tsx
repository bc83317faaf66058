import {
  NOTICE_CATEGORIES,
  type NoticeCategory,
  type NoticeSummary,
  PORTAL_KEYWORD_MAX,
  TRADE_TYPES,
  type TradeType,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { DEFAULT_PLATFORM_NAME, platformQuery } from '../../api/platform';
import { usePortalConfig } from '../../api/portalConfig';
import { formatCount, formatDate, formatYuanShort } from '../../lib/format';
import { CREDIT_PUBLIC_LIST_PATH } from '../../lib/paths';
import { homeOverviewQuery } from './api';
import { PortalFrame } from './PortalFrame';
import { Empty, ErrorState, SkeletonLines, Tabs } from './ui';

function noticeLink(id: string) {
  return `/transac-news?id=${encodeURIComponent(id)}`;
}

function NoticeList({ items, testId }: { items: NoticeSummary[]; testId: string }) {
  if (items.length === 0) return <Empty />;
  return (
    <ul className="kp-news" data-testid={testId}>
      {items.map((n) => (
        <li key={n.id} className="kp-news-item">
          <Link to={noticeLink(n.id)} className="kp-news-title" title={n.title}>
            <span className="kp-news-region">[{n.region}]</span>
            {n.title}
          </Link>
          <time className="kp-news-date" dateTime={n.publishedAt ?? undefined}>
            {formatDate(n.publishedAt)}
          </time>
        </li>
      ))}
    </ul>
  );
}

function Banner() {
  const navigate = useNavigate();
  const { data: platform } = useQuery(platformQuery);
  const [keyword, setKeyword] = useState('');
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    const k = keyword.trim();
    void navigate(k ? `/transac?keyword=${encodeURIComponent(k)}` : '/transac');
  };
  return (
    <section className="kp-banner" data-testid="home-banner">
      <svg className="kp-banner-art" viewBox="0 0 1200 360" preserveAspectRatio="xMidYMax slice" aria-hidden>
        <defs>
          <linearGradient id="kpSky" x1="0" x2="0" y1="0" y2="1">
            <stop offset="0" stopColor="#fff" stopOpacity="0.16" />
            <stop offset="1" stopColor="#fff" stopOpacity="0.02" />
          </linearGradient>
        </defs>
        <g fill="none" stroke="#fff" strokeOpacity="0.08">
          <circle cx="1020" cy="40" r="220" />
          <circle cx="1020" cy="40" r="160" />
          <circle cx="120" cy="360" r="180" />
        </g>
        <path
          fill="url(#kpSky)"
          d="M0 360V292h40v-30h36v30h28v-64h52v64h22v-46h40v46h30V200h18v-18h40v18h18v92h26v-52h48v52h34v-88h60v88h20v-36h30v36h40V176l40-26 40 26v116h24v-58h44v58h30v-96h56v96h22v-40h36v40h40V214h20v-22h36v22h20v78h34v-56h46v56h56v68z"
        />
      </svg>
      <div className="kp-container kp-banner-inner">
        <p className="kp-banner-eyebrow">公开 · 公平 · 公正 · 诚信</p>
        <h1 className="kp-banner-title" data-testid="home-title">
          {platform?.platformName || DEFAULT_PLATFORM_NAME}
        </h1>
        <p className="kp-banner-sub">工程建设、政府采购、土地矿业、国有产权等公共资源交易信息一站式公开查询</p>
        <form className="kp-search" onSubmit={onSearch}>
          <input
            className="kp-search-input"
            type="search"
            placeholder="请输入公告标题关键字"
            aria-label="搜索交易信息"
            maxLength={PORTAL_KEYWORD_MAX}
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            data-testid="home-search-input"
          />
          <button type="submit" className="kp-search-btn" data-testid="home-search-submit">
            搜索
          </button>
        </form>
      </div>
    </section>
  );
}

function Stats() {
  const { data, isPending, isError } = useQuery(homeOverviewQuery);
  const amount = formatYuanShort(data?.stats.transactionAmount);
  const items = [
    { key: 'projects', label: '交易项目', value: formatCount(data?.stats.projects), unit: '个' },
    { key: 'amount', label: '交易金额', value: amount.value, unit: amount.unit },
    { key: 'enterprises', label: '注册企业', value: formatCount(data?.stats.enterprises), unit: '家' },
    { key: 'notices', label: '发布公告', value: formatCount(data?.stats.notices), unit: '条' },
  ];
  return (
    <section className="kp-container kp-stats" aria-label="交易统计" data-testid="home-stats">
      {items.map((s) => (
        <div key={s.key} className="kp-stat" data-testid={`stat-${s.key}`}>
          <div className="kp-stat-label">{s.label}</div>
          {isPending ? (
            <span className="kp-skeleton-line kp-stat-skeleton" role="status" aria-label="加载中" />
          ) : (
            <div className="kp-stat-value">
              {isError ? '—' : s.value}
              {isError ? null : <span className="kp-stat-unit">{s.unit}</span>}
            </div>
          )}
        </div>
      ))}
    </section>
  );
}

function CategoryNotices() {
  const { data, isPending, isError, refetch } = useQuery(homeOverviewQuery);
  const [active, setActive] = useState<NoticeCategory>(NOTICE_CATEGORIES[0]);
  const items = data?.byCategory.find((g) => g.category === active)?.items ?? [];
  return (
    <section className="kp-card kp-home-notices" aria-labelledby="kp-latest-title">
      <div className="kp-card-head">
        <h2 id="kp-latest-title" className="kp-card-title">
          交易公告
        </h2>
        <Link className="kp-more" to={`/transac?category=${encodeURIComponent(active)}`} data-testid="category-more">
          更多 ›
        </Link>
      </div>
      <Tabs
        label="公告类别"
        testId="category-tabs"
        items={NOTICE_CATEGORIES.map((c) => ({ key: c, label: c }))}
        active={active}
        onChange={setActive}
      />
      <div role="tabpanel" aria-label={active} className="kp-tabpanel">
        {isPending ? (
          <SkeletonLines rows={8} testId="category-skeleton" />
        ) : isError ? (
          <ErrorState onRetry={() => void refetch()} />
        ) : (
          <NoticeList items={items} testId="category-notices" />
        )}
      </div>
    </section>
  );
}

const TRADE_ICONS: Record<TradeType, string> = {
  工程建设: 'M3 20h18M5 20V9l7-5 7 5v11M9 20v-6h6v6',
  政府采购: 'M4 6h16l-2 9H6zM6 15l-1 4h14M9 21h.01M17 21h.01',
  土地矿业: 'M2 19l6-9 4 5 3-4 7 8zM16 6a2 2 0 1 0 0-.01',
  国有产权: 'M4 10h16M6 10v8M10 10v8M14 10v8M18 10v8M3 20h18M12 3l9 5H3z',
  医药采购: 'M9 3h6v6h6v6h-6v6H9v-6H3V9h6z',
  其他交易: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
};

function TradeTypeNotices() {
  const { data, isPending, isError, refetch } = useQuery(homeOverviewQuery);
  return (
    <section className="kp-container kp-section" aria-labelledby="kp-trade-title">
      <h2 id="kp-trade-title" className="kp-section-title">
        按交易类型
      </h2>
      {isError ? (
        <div className="kp-card">
          <ErrorState onRetry={() => void refetch()} />
        </div>
      ) : (
        <div className="kp-trade-grid" data-testid="trade-types">
          {TRADE_TYPES.map((t) => {
            const items = (data?.byTradeType.find((g) => g.tradeType === t)?.items ?? []).slice(0, 5);
            return (
              <div key={t} className="kp-card kp-trade-card" data-testid="trade-type-card" data-trade-type={t}>
                <div className="kp-card-head">
                  <h3 className="kp-trade-title">
                    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden>
                      <path
                        d={TRADE_ICONS[t]}
                        fill="none"
                        stroke="currentColor"
                        strokeWidth="1.8"
                        strokeLinejoin="round"
                      />
                    </svg>
                    {t}
                  </h3>
                  <Link className="kp-more" to={`/transac?tradeType=${encodeURIComponent(t)}`}>
                    更多 ›
                  </Link>
                </div>
                {isPending ? <SkeletonLines rows={5} /> : <NoticeList items={items} testId="trade-type-notices" />}
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}

function QuickEntries() {
  const config = usePortalConfig();
  const businessTo = config?.loginMode === 'ywbl' ? '/admin-business' : '/login';
  return (
    <aside className="kp-quick" aria-label="快捷入口">
      <Link to={businessTo} className="kp-quick-item kp-quick-business" data-testid="quick-business">
        <svg width="36" height="36" viewBox="0 0 24 24" aria-hidden>
          <path d="M4 4h16v12H4zM8 20h8M12 16v4M7 8h6M7 11h10" fill="none" stroke="currentColor" strokeWidth="1.6" />
        </svg>
        <span>
          <strong>业务办理</strong>
          <small>登录后在线办理交易与信用业务</small>
        </span>
      </Link>
      <Link to={CREDIT_PUBLIC_LIST_PATH} className="kp-quick-item kp-quick-credit" data-testid="quick-credit">
        <svg width="36" height="36" viewBox="0 0 24 24" aria-hidden>
          <path
            d="M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6zM8.5 12l2.5 2.5 4.5-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
          />
        </svg>
        <span>
          <strong>信用公示</strong>
          <small>查询企业信用等级与有效期</small>
        </span>
      </Link>
    </aside>
  );
}

/** The public portal home `/` (login mode ggfw). Header, banner and search render at once; data shows skeletons. */
export default function HomePage() {
  return (
    <PortalFrame>
      <Banner />
      <Stats />
      <div className="kp-container kp-home-row">
        <CategoryNotices />
        <QuickEntries />
      </div>
      <TradeTypeNotices />
    </PortalFrame>
  );
}
