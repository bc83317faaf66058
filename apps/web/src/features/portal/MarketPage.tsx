import { MARKET_KIND_LABELS, MARKET_KINDS, type MarketKind, PORTAL_KEYWORD_MAX } from '@ks/contracts';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PortalFrame } from './PortalFrame';
import { Breadcrumb } from './ui';

const ENTRIES: Record<MarketKind, { text: string; icon: string }> = {
  enterprise: {
    text: '施工、设计、监理、供应商等企业的基本信息、资质、业绩与信用',
    icon: 'M4 21V5l8-3v19M12 8l8 3v10M7 8h2M7 12h2M7 16h2M15 13h2M15 17h2M2 21h20',
  },
  agency: {
    text: '招标代理机构的基本信息、从业业绩与信用记录',
    icon: 'M4 7h16v13H4zM9 7V4h6v3M4 12h16M11 12v2h2v-2',
  },
  practitioner: {
    text: '建造师、造价工程师等从业人员的执业信息与信用',
    icon: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21c0-4 3.6-7 8-7s8 3 8 7',
  },
};

/** 市场主体 `/market`: three entries (企业, 招标代理机构, 从业人员) and a search. */
export default function MarketPage() {
  const navigate = useNavigate();
  const [kind, setKind] = useState<MarketKind>('enterprise');
  const [keyword, setKeyword] = useState('');
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    const sp = new URLSearchParams({ kind });
    const k = keyword.trim();
    if (k) sp.set('keyword', k);
    void navigate(`/market-list?${sp.toString()}`);
  };
  return (
    <PortalFrame>
      <div className="kp-container kp-page">
        <Breadcrumb items={[{ label: '首页', to: '/' }, { label: '市场主体' }]} />
        <section className="kp-card kp-market-hero">
          <h1 className="kp-card-title">市场主体查询</h1>
          <p className="kp-muted">查询在本平台登记的企业、招标代理机构和从业人员及其信用等级</p>
          <form className="kp-market-search" onSubmit={onSearch}>
            <select
              className="kp-select"
              aria-label="主体类别"
              value={kind}
              onChange={(e) => setKind(e.target.value as MarketKind)}
              data-testid="market-search-kind"
            >
              {MARKET_KINDS.map((k) => (
                <option key={k} value={k}>
                  {MARKET_KIND_LABELS[k]}
                </option>
              ))}
            </select>
            <input
              type="search"
              className="kp-input"
              placeholder={kind === 'practitioner' ? '请输入姓名' : '请输入名称或统一社会信用代码'}
              aria-label="关键字"
              maxLength={PORTAL_KEYWORD_MAX}
              value={keyword}
              onChange={(e) => setKeyword(e.target.value)}
              data-testid="market-search-input"
            />
            <button type="submit" className="ks-btn ks-btn-primary" data-testid="market-search-submit">
              查询
            </button>
          </form>
        </section>
        <div className="kp-entry-grid">
          {MARKET_KINDS.map((k) => (
            <Link key={k} to={`/market-list?kind=${k}`} className="kp-card kp-entry" data-testid={`market-entry-${k}`}>
              <span className="kp-entry-icon">
                <svg width="32" height="32" viewBox="0 0 24 24" aria-hidden>
                  <path d={ENTRIES[k].icon} fill="none" stroke="currentColor" strokeWidth="1.6" />
                </svg>
              </span>
              <span className="kp-entry-title">{MARKET_KIND_LABELS[k]}</span>
              <span className="kp-entry-text">{ENTRIES[k].text}</span>
              <span className="kp-more">进入查询 ›</span>
            </Link>
          ))}
        </div>
      </div>
    </PortalFrame>
  );
}
