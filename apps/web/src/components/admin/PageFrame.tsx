import { DEFAULT_HOME_URL } from '@ks/contracts';
import { Breadcrumb } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface Section {
  title: string;
  /** the section's own page, when it has one */
  to?: string;
}

/**
 * The frame of a back-office page: breadcrumb 首页 / {section} / {title}, then whatever sits between it and the page
 * (`nav`, e.g. the sibling pages), then the page's cards. `wide` pages (an editor beside a preview) use the whole
 * width; the others stop at 1440 px.
 */
export function PageFrame({
  section,
  title,
  nav,
  wide = false,
  children,
}: {
  section: Section;
  title: string;
  nav?: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div style={{ maxWidth: wide ? undefined : 1440, margin: '0 auto' }}>
      <Breadcrumb
        style={{ marginBottom: 16 }}
        items={[
          { title: <Link to={DEFAULT_HOME_URL}>首页</Link> },
          { title: section.to ? <Link to={section.to}>{section.title}</Link> : section.title },
          { title },
        ]}
      />
      {nav}
      {children}
    </div>
  );
}
