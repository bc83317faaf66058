import { useQuery } from '@tanstack/react-query';
import type { CSSProperties } from 'react';
import { platformQuery } from '../api/platform';

export const FILING_SITE_URL = 'https://beian.miit.gov.cn';

export interface SiteFooterProps {
  /** light: dark text on a light page (login); dark: light text on a dark band (portal). */
  tone?: 'light' | 'dark';
  style?: CSSProperties;
}

/** Footer shared by the login page and the portal: platform description, service hotline and filing code. */
export function SiteFooter({ tone = 'light', style }: SiteFooterProps) {
  const { data } = useQuery(platformQuery);
  const color = tone === 'dark' ? 'rgba(255,255,255,0.78)' : '#6b7385';
  const linkColor = tone === 'dark' ? '#ffffff' : '#4a5466';
  return (
    <footer
      data-testid="site-footer"
      style={{
        padding: '18px 24px',
        textAlign: 'center',
        fontSize: 13,
        lineHeight: '22px',
        color,
        background: tone === 'dark' ? '#0d2c6b' : 'transparent',
        ...style,
      }}
    >
      {data?.describe ? <div data-testid="footer-describe">{data.describe}</div> : null}
      <div style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', columnGap: 24 }}>
        {data?.phone ? <span data-testid="footer-phone">服务热线：{data.phone}</span> : null}
        {data?.filingsCoding ? (
          <a
            data-testid="footer-filing"
            href={FILING_SITE_URL}
            target="_blank"
            rel="noopener noreferrer"
            style={{ color: linkColor }}
          >
            {data.filingsCoding}
          </a>
        ) : null}
      </div>
    </footer>
  );
}
