import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeRichText } from '../../platform/sanitize';
import { createTestApp, loginToken, type TestApp } from '../../test/harness';
import { client, PNG, tmpDataDir } from './testkit';

let t: TestApp;
let user: string;
let dev: string;
const api = client(() => t);
const NODE = 'XYGL_XYJL';

beforeAll(async () => {
  t = await createTestApp({ env: { DATA_DIR: tmpDataDir() } });
  [user, dev] = await Promise.all([loginToken(t.app, 'user1', 'U'), loginToken(t.app, 'dev', 'D')]);
  const fields = [
    { code: 'bt', name: '标题', type: 'text', required: 1 },
    { code: 'nr', name: '正文', type: 'editor' },
  ];
  const r = await t.app.inject({
    method: 'PUT',
    url: '/ks/config/node/fields',
    headers: { authorization: `Bearer ${dev}` },
    payload: { gnCoding: NODE, fields, version: 0 },
  });
  expect(r.statusCode, r.body).toBe(200);
});
afterAll(async () => t?.close());

describe('editor fields of engine records are sanitised on save', () => {
  it('removes scripts, event handlers and javascript: URLs, keeps our own image and video addresses', async () => {
    const img = (
      await api.upload('/dev-api/common/upload', user, {}, [{ field: 'custom-fileName', name: 'a.png', data: PNG() }])
    ).body as unknown as { data: { url: string } };
    const dirty = [
      '<p onclick="steal()">正文<script>alert(1)</script></p>',
      `<p><img src="${img.data.url}" alt="插图" onerror="alert(2)"></p>`,
      '<a href="javascript:alert(3)">链接</a>',
      '<img src="javascript:alert(4)"><img src="//evil.test/x.png"><img src="data:image/png;base64,AAAA">',
      '<video controls="true" onplay="x()" poster="javascript:alert(5)"><source src="/ks/common/common/file/download?fileId=00000000-0000-4000-8000-000000000000" type="video/mp4"></video>',
      '<iframe src="https://evil.test"></iframe><style>body{}</style>',
    ].join('');
    const saved = await api.post('/ks/engine/v1/records/save', user, {
      gnCoding: NODE,
      values: { bt: '标题', nr: dirty },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const html = saved.body.data.values.nr as string;
    expect(html).not.toMatch(/script|onclick|onerror|onplay|javascript:|iframe|<style|evil\.test|data:image/i);
    expect(html).toContain('正文');
    expect(html).toContain(`<img src="${img.data.url.replace(/&/g, '&amp;')}" alt="插图" />`);
    expect(html).toContain(
      '<source src="/ks/common/common/file/download?fileId=00000000-0000-4000-8000-000000000000" type="video/mp4">',
    );
    // what is stored is the clean text, not only what is answered
    const [row] = (
      (await t.database.db.execute(
        sql`select "f_nr" from "n_xygl_xyjl" where "id" = ${saved.body.data.id}`,
      )) as unknown as {
        rows: { f_nr: string }[];
      }
    ).rows;
    expect(row!.f_nr).toBe(html);
  });

  it('keeps the editor video markup and drops unsafe video sources', () => {
    const out = sanitizeRichText(
      '<video controls="true" width="auto" height="auto"><source src="https://cdn.test/v.mp4" type="video/mp4" /></video><video src="javascript:x"></video>',
    );
    expect(out).toContain(
      '<video controls="true" width="auto" height="auto"><source src="https://cdn.test/v.mp4" type="video/mp4">',
    );
    expect(out).not.toContain('javascript');
  });
});
