import { readFileSync } from 'node:fs';
import path from 'node:path';
import { COST_MSG } from '@ks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginToken, type TestApp } from '../../test/harness';
import { client } from '../files/testkit';

const SAMPLE = readFileSync(path.resolve(import.meta.dirname, '../../../../../docs/samples/cost-sample.xml'));
const URL = '/ks/analyse/xml_analysis';

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
