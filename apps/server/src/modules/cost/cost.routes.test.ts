import { readFileSync } from 'node:fs';
import path from 'node:path';
import { COST_MSG } from '@ks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginToken, type TestApp } from '../../test/harness';
import { client } from '../files/testkit';

const SAMPLE = readFileSync(path.resolve(import.meta.dirname, '../../../../../docs/samples/cost-sample.xml'));
const SAMPLE_XLSX = readFileSync(path.resolve(import.meta.dirname, '../../../../../docs/samples/cost-sample.xlsx'));
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const URL = '/ks/analyse/xml_analysis';

type Row = { line: number; children?: Row[] };
/** the tree without the place each node stands on (a line of the XML, a row of the sheet) */
const shape = (rows: Row[]): unknown[] =>
  rows.map(({ line: _, children, ...rest }) => (children ? { ...rest, children: shape(children) } : rest));

let t: TestApp;
const c = client(() => t);
let admin: string;
let bidder: string;
beforeAll(async () => {
  t = await createTestApp();
  [admin, bidder] = await Promise.all([loginToken(t.app, 'admin', 'M'), loginToken(t.app, 'user1', 'U')]);
});
afterAll(async () => t?.close());

describe('/ks/analyse/xml_analysis', () => {
  it('answers the tree of the documented sample, for the centre and for a bidder checking its own file', async () => {
    for (const token of [admin, bidder]) {
      const r = await c.upload(URL, token, {}, [{ name: '投标报价.xml', data: SAMPLE, type: 'text/xml' }]);
      expect(r.status).toBe(200);
      const d = r.body.data;
      expect(d).toMatchObject({
        fileName: '投标报价.xml',
        format: 'xml',
        size: SAMPLE.length,
        bidder: '示例建设工程有限公司',
      });
      expect(d.tree[0].children).toHaveLength(2);
      expect(d.tree[0].zzj).toBe(d.bidPrice);
      expect(d.lineCount).toBeGreaterThan(30);
    }
  });

  it('answers the same tree for the documented xlsx sample as for the XML, and names the sheet of a broken workbook', async () => {
    const x = await c.upload(URL, admin, {}, [{ name: '投标报价.xml', data: SAMPLE, type: 'text/xml' }]);
    const w = await c.upload(URL, bidder, {}, [{ name: '投标报价.XLSX', data: SAMPLE_XLSX, type: XLSX_TYPE }]);
    expect(w.status).toBe(200);
    expect(w.body.data).toMatchObject({ fileName: '投标报价.XLSX', format: 'xlsx', size: SAMPLE_XLSX.length });
    expect(shape(w.body.data.tree)).toEqual(shape(x.body.data.tree));
    expect(w.body.data.lineCount).toBe(x.body.data.lineCount);
    expect(w.body.data.bidPrice).toBe(x.body.data.bidPrice);
    const notZip = await c.upload(URL, admin, {}, [{ name: 'a.xlsx', data: SAMPLE, type: XLSX_TYPE }]);
    expect(notZip.status).toBe(400);
    expect(notZip.body.message).toBe(COST_MSG.notXlsx);
  });

  it('refuses a malformed file naming its line, another type, an empty request, and the anonymous', async () => {
    const lines = SAMPLE.toString('utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('<单位工程'));
    lines[at] = lines[at]!.replace(/ 规费="[^"]*"/, '');
    const r = await c.upload(URL, admin, {}, [{ name: 'a.xml', data: Buffer.from(lines.join('\n')) }]);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(COST_MSG.atLine(at + 1, COST_MSG.missing('单位工程', '规费')));
    const pdf = await c.upload(URL, admin, {}, [{ name: 'a.pdf', data: SAMPLE }]);
    expect(pdf.status).toBe(400);
    expect(pdf.body.message).toBe(COST_MSG.wrongType);
    const none = await c.upload(URL, admin, { x: 1 }, []);
    expect(none.status).toBe(400);
    expect((await c.upload(URL, null, {}, [{ name: 'a.xml', data: SAMPLE }])).status).toBe(401);
    const json = await c.post(URL, admin, {});
    expect(json.status).toBe(400);
  });
});
