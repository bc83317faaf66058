import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../api/request';
import { formatDateTime, formatYuan } from '../../lib/format';
import { safeHref, sanitizeHtml } from '../../lib/sanitize';
import { noticeDetailQuery } from './api';
import { PortalFrame } from './PortalFrame';
import { isUuid } from './query';
import { Breadcrumb, ErrorState, SkeletonLines } from './ui';

export const NOTICE_NOT_FOUND = '公告不存在或已撤回';

function NotFound() {
  return (
    <div className="kp-result" data-testid="notice-not-found">
      <h1 className="kp-result-title">{NOTICE_NOT_FOUND}</h1>
      <p className="kp-muted">您访问的公告可能已被撤回或链接有误。</p>
      <Link to="/transac" className="ks-btn ks-btn-primary" data-testid="back-to-list">
        返回交易信息
      </Link>
    </div>
  );
}

function Detail({ id }: { id: string }) {
  const { data, isPending, isError, error, refetch } = useQuery(noticeDetailQuery(id));
  const html = useMemo(() => sanitizeHtml(data?.bodyHtml), [data?.bodyHtml]);

  useEffect(() => {
    if (!data) return;
    const previous = document.title;
    document.title = data.title;
    return () => {
      document.title = previous;
    };
  }, [data]);

  if (isPending) return <SkeletonLines rows={12} testId="notice-skeleton" />;
  if (isError) {
    if (isApiError(error) && (error.status === 404 || error.code === 404 || error.status === 400)) return <NotFound />;
    return <ErrorState onRetry={() => void refetch()} />;
  }
  const amount = formatYuan(data.amount);
  const meta: [string, string | null][] = [
    ['公告类别', data.category],
    ['交易类型', data.tradeType],
    ['所在地区', data.region],
    ['项目编号', data.projectCode],
    ['项目名称', data.projectName],
    ['标段', data.sectionName],
    ['招标人', data.tenderer],
    ['金额', amount],
    ['发布时间', formatDateTime(data.publishedAt)],
  ];
  return (
    <article className="kp-article" data-testid="notice-detail">
      <h1 className="kp-article-title" data-testid="notice-detail-title">
        {data.title}
      </h1>
      <dl className="kp-meta" data-testid="notice-meta">
        {meta.map(([k, v]) => (
          <div key={k} className="kp-meta-item">
            <dt>{k}</dt>
            <dd>{v || '—'}</dd>
          </div>
        ))}
      </dl>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify just above */}
      <div className="kp-article-body" data-testid="notice-body" dangerouslySetInnerHTML={{ __html: html }} />
      <section className="kp-attachments" aria-labelledby="kp-att-title" data-testid="notice-attachments">
        <h2 id="kp-att-title" className="kp-subtitle">
          附件
        </h2>
        {data.attachments.length === 0 ? (
          <p className="kp-muted">暂无附件</p>
        ) : (
          <ul>
            {data.attachments.map((a, i) => {
              const href = safeHref(a.url);
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: attachments have no id and may repeat
                <li key={i} data-testid="notice-attachment">
                  <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden>
                    <path
                      d="M21 11.5 12.5 20a5 5 0 0 1-7-7L14 4.5a3.5 3.5 0 0 1 5 5L10.5 18a2 2 0 0 1-3-3l8-8"
                      fill="none"
                      stroke="currentColor"
                      strokeWidth="2"
                    />
                  </svg>
                  {href ? (
                    <a href={href} target="_blank" rel="noopener noreferrer">
                      {a.name}
                    </a>
                  ) : (
                    <span>{a.name}</span>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </article>
  );
}

/** 公告详情 `/transac-news?id=<uuid>`. */
export default function NoticeDetailPage() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  return (
    <PortalFrame>
      <div className="kp-container kp-page">
        <Breadcrumb
          items={[{ label: '首页', to: '/' }, { label: '交易信息', to: '/transac' }, { label: '公告详情' }]}
        />
        <div className="kp-card">{isUuid(id) ? <Detail id={id} /> : <NotFound />}</div>
      </div>
    </PortalFrame>
  );
}
