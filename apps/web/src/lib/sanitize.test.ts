import { describe, expect, it } from 'vitest';
import { safeHref, sanitizeHtml } from './sanitize';

describe('sanitizeHtml', () => {
  it('removes scripts, event handlers and javascript: URLs and keeps the content', () => {
    const out = sanitizeHtml(
      '<p>正文</p><script>window.__x=1</script><img src=x onerror="window.__y=1"><a href="javascript:alert(1)">链接</a>',
    );
    expect(out).toContain('<p>正文</p>');
    expect(out).not.toContain('script');
    expect(out).not.toContain('onerror');
    expect(out).not.toContain('javascript:');
    expect(out).toContain('链接');
  });

  it('removes forms, frames, style blocks and style attributes', () => {
    const out = sanitizeHtml(
      '<style>body{display:none}</style><form action="/x"><input name="a"></form><iframe src="/"></iframe><p style="position:fixed">文字</p>',
    );
    expect(out).toBe('<p>文字</p>');
  });

  it('keeps tables and links, and links opening a new window get rel=noopener', () => {
    const out = sanitizeHtml(
      '<table><tbody><tr><td>1</td></tr></tbody></table><a href="https://a.test" target="_blank">a</a>',
    );
    expect(out).toContain('<td>1</td>');
    expect(out).toContain('rel="noopener noreferrer"');
    expect(out).toContain('href="https://a.test"');
  });

  it('returns an empty string for nothing', () => {
    expect(sanitizeHtml(null)).toBe('');
    expect(sanitizeHtml('')).toBe('');
  });
});

describe('safeHref', () => {
  it('allows http(s) addresses and same-site paths only', () => {
    expect(safeHref('https://files.test/a.pdf')).toBe('https://files.test/a.pdf');
    expect(safeHref('/files/a.pdf')).toBe('/files/a.pdf');
    expect(safeHref('//evil.test/a')).toBeNull();
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,x')).toBeNull();
    expect(safeHref('')).toBeNull();
  });
});

describe('the portal link rule (issue 11)', () => {
  it('safeHref refuses backslash and user-name tricks that browsers read as another host', () => {
    for (const trick of [
      '/\\evil.example/x',
      '\\\\evil.example/x',
      'https:/\\evil.example/',
      'https://gov.cn@evil.example/',
      ' //evil.example',
    ]) {
      expect(safeHref(trick), trick).toBeNull();
    }
  });

  it('drops link addresses that leave the site by a trick; external links open in a new window without opener', () => {
    const out = sanitizeHtml(
      '<a href="/\\evil.example/x">一</a><a href="https://gov.cn@evil.example/">二</a><a href="https://www.ccgp.gov.cn/">三</a><a href="/transac">四</a>',
    );
    const doc = new DOMParser().parseFromString(out, 'text/html');
    const links = [...doc.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([null, null, 'https://www.ccgp.gov.cn/', '/transac']);
    expect(links[2]!.getAttribute('target')).toBe('_blank');
    expect(links[2]!.getAttribute('rel')).toBe('noopener noreferrer');
    expect(links[3]!.getAttribute('target')).toBeNull();
  });

  it('loads images and videos from this site only (nothing the content security policy would block)', () => {
    const out = sanitizeHtml(
      '<img src="https://evil.example/a.png"><img src="//evil.example/b.png"><img src="data:image/png;base64,AAAA"><img src="/ks/common/common/file/download?fileId=1"><video poster="https://x.example/p.png"><source src="https://x.example/v.mp4"></video>',
    );
    expect(out).not.toMatch(/evil\.example|x\.example|data:/);
    expect(out).toContain('src="/ks/common/common/file/download?fileId=1"');
  });

  it('parses untrusted HTML away from the live document: nothing of it runs or lands in the page', () => {
    const before = document.body.innerHTML;
    const w = window as unknown as { __y?: number };
    sanitizeHtml('<img src="/x.png" onerror="window.__y=1"><svg><script>window.__y=2</script></svg>');
    expect(document.body.innerHTML).toBe(before);
    expect(w.__y).toBeUndefined();
  });
});
