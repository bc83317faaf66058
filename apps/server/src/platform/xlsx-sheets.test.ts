import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { columnName, xlsxOfSheets } from './xlsx-sheets';

async function read(buf: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  return wb;
}

describe('xlsxOfSheets', () => {
  it('names columns as Excel does', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
  });

  it('writes a workbook Excel readers open: sheets, text and numbers, a bold frozen header, widths', async () => {
    const buf = xlsxOfSheets([
      {
        name: '评标结果',
        header: ['排名', '投标人', '总分'],
        widths: [6, 36, 10],
        rows: [
          [1, '山西建工集团有限公司 <A&B> "甲"', 92.35],
          [2, '', null],
          ['', '控制\u0001字符', Number.NaN],
        ],
      },
      { name: '技术标', header: ['评委'], widths: [], rows: [['王建国']] },
    ]);
    expect(buf.subarray(0, 2).toString()).toBe('PK');
    const wb = await read(buf);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['评标结果', '技术标']);
    const ws = wb.getWorksheet('评标结果')!;
    expect(ws.getRow(1).values).toEqual([undefined, '排名', '投标人', '总分']);
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(ws.getCell('A2').value).toBe(1);
    expect(ws.getCell('B2').value).toBe('山西建工集团有限公司 <A&B> "甲"');
    expect(ws.getCell('C2').value).toBe(92.35);
    // empty and non-finite cells are left out; control characters XML cannot hold are dropped
    expect(ws.getCell('B3').value).toBeNull();
    expect(ws.getCell('C4').value).toBeNull();
    expect(ws.getCell('B4').value).toBe('控制字符');
    expect(ws.getColumn(2).width).toBe(36);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(wb.getWorksheet('技术标')!.getCell('A2').value).toBe('王建国');
  });

  it('makes sheet names Excel takes: no forbidden characters, at most 31 characters, unique', async () => {
    const long = '某'.repeat(40);
    const wb = await read(
      xlsxOfSheets([
        { name: 'a/b:c', header: ['x'], widths: [], rows: [] },
        { name: long, header: ['x'], widths: [], rows: [] },
        { name: long, header: ['x'], widths: [], rows: [] },
      ]),
    );
    const names = wb.worksheets.map((w) => w.name);
    expect(names[0]).toBe('a b c');
    expect(names[1]).toHaveLength(31);
    expect(new Set(names).size).toBe(3);
    expect(names.every((n) => n.length <= 31)).toBe(true);
  });

  it('refuses a workbook without a sheet', () => {
    expect(() => xlsxOfSheets([])).toThrow();
  });
});
