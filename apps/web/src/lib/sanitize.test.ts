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
