import { describe, expect, it } from 'vitest';
import { contentDisposition } from './content-disposition';

describe('contentDisposition', () => {
  it('sends the UTF-8 name RFC 5987 style beside an ASCII fallback', () => {
    expect(contentDisposition('招标文件.pdf')).toBe(
      `attachment; filename="____.pdf"; filename*=UTF-8''${encodeURIComponent('招标文件.pdf')}`,
    );
    expect(contentDisposition('a.png', true).startsWith('inline; ')).toBe(true);
  });

  it('lets no quote, backslash, semicolon or line break out of the header', () => {
    const cd = contentDisposition('x";\r\nSet-Cookie: a=b\\.txt');
    expect(cd).not.toMatch(/[\r\n]/);
    expect(cd.split('"').length).toBe(3);
    expect(cd).toContain("filename*=UTF-8''x%22%3B%0D%0ASet-Cookie%3A%20a%3Db%5C.txt");
  });

  it('falls back to "file" when nothing printable is left', () => {
    expect(contentDisposition('   ')).toContain('filename="file"');
  });
});
