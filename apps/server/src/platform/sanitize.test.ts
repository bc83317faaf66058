import { describe, expect, it } from 'vitest';
import { escapeHtml, sanitizeRichText } from './sanitize';

describe('rich text sanitiser', () => {
  it('drops scripts, event handlers and javascript: URLs, keeps the content', () => {
    const out = sanitizeRichText(
      '<p onclick="x()">正文<script>alert(1)</script></p><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">链接</a><iframe src="https://e.test"></iframe>',
    );
    expect(out).toContain('正文');
    expect(out).toContain('链接');
    expect(out).not.toMatch(/script|onerror|onclick|javascript:|iframe/i);
  });

  it('keeps tables, images over http(s) and safe links', () => {
    const out = sanitizeRichText(
      '<table><tr><td colspan="2">金额</td></tr></table><img src="https://cdn.test/a.png" alt="图"><a href="https://e.test" target="_blank">外链</a>',
    );
    expect(out).toContain('<td colspan="2">金额</td>');
    expect(out).toContain('<img src="https://cdn.test/a.png" alt="图" />');
    expect(out).toContain('rel="noopener noreferrer"');
  });

  it('escapes text for HTML: markup, quotes and ampersands, nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>A&B</a> 中文`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;A&amp;B&lt;/a&gt; 中文',
    );
  });
});
