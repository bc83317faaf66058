import { describe, expect, it } from 'vitest';
import { formPdf, textPdf } from './pdf';

/** Every entry of the cross-reference table points at the start of its object, and startxref at the table. */
function expectXrefValid(pdf: Buffer) {
  const text = pdf.toString('latin1');
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
  expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
  const [, count] = /^xref\n0 (\d+)\n/.exec(text.slice(startxref))!;
  const rows = text
    .slice(startxref)
    .split('\n')
    .slice(3, 2 + Number(count));
  expect(rows).toHaveLength(Number(count) - 1);
  for (const [i, row] of rows.entries()) {
    const offset = Number(row.slice(0, 10));
    expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
  }
}

describe('the plain PDFs', () => {
  it('a one-page form: offsets right', () => {
    expectXrefValid(
      formPdf({ file: 'x.pdf', title: '申请书', note: '说明', rows: ['甲', ['乙', '丙']], footer: ['盖章'] }),
    );
  });

  it('a long record of many pages, Chinese and ASCII mixed: every offset right, pages numbered', () => {
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i % 50 === 0
        ? `## 第 ${i / 50 + 1} 部分`
        : `专家${i % 9} 对 投标人${i % 50} 的第 ${i} 项评 ${(i % 10) + 0.5} 分 (reason: ok)`,
    );
    const pdf = textPdf('评 标 报 告', lines);
    expectXrefValid(pdf);
    const text = pdf.toString('latin1');
    const pages = Number(/\/Type \/Pages \/Kids \[[^\]]*\] \/Count (\d+)/.exec(text)![1]);
    expect(pages).toBeGreaterThan(60);
    expect(text).toContain(Buffer.from('第', 'utf16le').swap16().toString('hex'));
  });
});
