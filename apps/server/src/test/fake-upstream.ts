import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { creditCodeCheckChar } from '@ks/contracts';
import { signPush } from '../platform/integrations/upstream';

/**
 * A local stand-in for the upstream public-resource platform (test-only module), speaking the API of
 * platform/integrations/upstream.ts:
 * - `POST /push` checks the app id and the HMAC signature (401 when wrong), records what it receives and answers 200;
 * - `POST /registrations` ({since, cursor, pageSize}, signed the same way) serves a believable list of Shanxi enterprise
 *   registrations page by page — valid credit codes, one with a wrong check character, one without its legal
 *   representative, one cancelled (注销), one that is the demo's own enterprise with a raised capital, and one that
 *   changes between pulls (each pull — a request without a cursor — of an app id is its next generation; from the
 *   second one on, 朔州 安泰电力 has a new legal representative and capital).
 * Failures on purpose: `failNext(n, mode, {target, appId, after})` fails the next n requests of `target` ('push' or
 * 'registrations'; of one app id, or any), after letting `after` through first — answered 500, or never (`timeout`).
 * App ids are FAKE_UPSTREAM_APP_ID or it with a suffix (`fake-dex-app-18090`: one per e2e server, so a test's failures
 * hit only its own server's requests); the secret is the same for all.
 * Run directly (`node --import tsx apps/server/src/test/fake-upstream.ts`) it listens on FAKE_UPSTREAM_PORT for the e2e
 * servers, with GET /health, GET /received, and POST /control {fail, mode, target, appId, after, delayMs}.
 */
export const FAKE_UPSTREAM_APP_ID = 'fake-dex-app';
export const FAKE_UPSTREAM_SECRET = 'fake-dex-secret-0001';

export interface Received {
  businessKey: string;
  body: unknown;
  signatureOk: boolean;
}

export type FailMode = 'http-500' | 'timeout';
export type FailTarget = 'push' | 'registrations';
export interface FailOptions {
  target?: FailTarget;
  /** only this app id's requests (default: any) */
  appId?: string;
  /** requests let through before the failures start */
  after?: number;
}

export interface RegistrationQuery {
  appId: string;
  since: string | null;
  cursor: string | null;
  pageSize: number;
}

export interface FakeUpstream {
  url: string;
  received: Received[];
  /** requests answered with 200, by business key */
  accepted: Map<string, number>;
  /** every signed registration request, in order */
  registrationRequests: RegistrationQuery[];
  failNext(n: number, mode?: FailMode, opts?: FailOptions): void;
  /** milliseconds to wait before answering a registration page (progress a person can watch) */
  setDelay(ms: number): void;
  /** the records served to `appId` now (its current generation) */
  registrations(appId?: string): FakeRegistration[];
  close(): Promise<void>;
}

export interface FakeRegistration {
  id: string;
  name: string;
  creditCode: string;
  legalPerson: string;
  registeredCapital: string;
  regionCode: string;
  address: string;
  establishedAt: string;
  entType: string;
  regType: string;
  regStatus: string;
  updatedAt: string;
}

const code = (first17: string) => `${first17}${creditCodeCheckChar(first17)}`;
/** a code whose check character is wrong (the right one, moved one place on) */
const wrongCode = (first17: string) => {
  const chars = '0123456789ABCDEFGHJKLMNPQRTUWXY';
  const right = creditCodeCheckChar(first17)!;
  return `${first17}${chars[(chars.indexOf(right) + 1) % chars.length]}`;
};

/** The demo enterprise's code (seed/demo.ts DEMO_CREDIT_CODE): the upstream knows it with a raised capital. */
export const FAKE_DEMO_CREDIT_CODE = code('91140100MA0K8G2J7');
export const FAKE_CHANGING_ID = 'SXSCJG-140602-2008-000217';
export const FAKE_INVALID_ID = 'SXSCJG-140321-2016-000530';
export const FAKE_MISSING_ID = 'SXSCJG-140100-2019-000811';
export const FAKE_CLOSED_ID = 'SXSCJG-140100-2007-000096';
export const FAKE_DEMO_ID = 'SXSCJG-140100-2008-000001';

type Base = Omit<FakeRegistration, 'updatedAt'>;
const reg = (
  id: string,
  name: string,
  creditCode: string,
  legalPerson: string,
  capitalYuan: number,
  regionCode: string,
  address: string,
  establishedAt: string,
  entType: string,
  regType = '设立登记',
  regStatus = '存续',
): Base => ({
  id,
  name,
  creditCode,
  legalPerson,
  registeredCapital: capitalYuan.toFixed(2),
  regionCode,
  address,
  establishedAt,
  entType,
  regType,
  regStatus,
});

/** The upstream's registrations (generation 1), oldest change first. */
const BASE: Base[] = [
  reg(
    'SXSCJG-140105-2009-000341',
    '山西晋阳路桥建设有限公司',
    code('91140105MA0GRJ7K2'),
    '王建斌',
    120_000_000,
    '140105',
    '太原市小店区龙城大街 88 号',
    '2009-04-16',
    '施工企业',
  ),
  reg(
    'SXSCJG-140213-2011-000127',
    '大同市云冈建筑安装工程有限公司',
    code('91140213MA0HB6UX8'),
    '刘志军',
    60_000_000,
    '140213',
    '大同市平城区御河西路 156 号',
    '2011-08-02',
    '施工企业',
  ),
  reg(
    'SXSCJG-140403-2006-000058',
    '长治市上党工程监理有限公司',
    code('91140403MA0JT2Q45'),
    '赵丽萍',
    10_000_000,
    '140403',
    '长治市潞州区英雄南路 219 号',
    '2006-11-20',
    '监理企业',
  ),
  reg(
    'SXSCJG-140502-2013-000402',
    '晋城市太行市政工程有限公司',
    code('91140502MA0KC8W73'),
    '郭志刚',
    50_000_000,
    '140502',
    '晋城市城区泽州路 1066 号',
    '2013-03-08',
    '施工企业',
  ),
  reg(
    'SXSCJG-141002-2004-000019',
    '临汾市尧都建筑设计院有限公司',
    code('91141002MA0LD3P6X'),
    '李红梅',
    8_000_000,
    '141002',
    '临汾市尧都区鼓楼北大街 37 号',
    '2004-07-12',
    '设计企业',
  ),
  reg(
    'SXSCJG-140802-2010-000263',
    '运城市河东水利工程有限公司',
    code('91140802MA0MH5R18'),
    '张海涛',
    30_000_000,
    '140802',
    '运城市盐湖区河东东街 512 号',
    '2010-05-25',
    '施工企业',
  ),
  reg(
    'SXSCJG-140702-2015-000688',
    '晋中市榆次区恒信招标代理有限公司',
    code('91140702MA0NK9T24'),
    '闫晓东',
    5_000_000,
    '140702',
    '晋中市榆次区顺城街 77 号',
    '2015-09-30',
    '招标代理机构',
  ),
  reg(
    'SXSCJG-141182-2012-000307',
    '吕梁市汾阳建材供应有限公司',
    code('91141182MA0PQ4W5B'),
    '任国庆',
    20_000_000,
    '141182',
    '汾阳市胜利街 203 号',
    '2012-12-03',
    '供应商',
  ),
  reg(
    'SXSCJG-140902-2014-000455',
    '忻州市五台山园林绿化工程有限公司',
    code('91140902MA0QR7X3C'),
    '薛文斌',
    15_000_000,
    '140902',
    '忻州市忻府区和平西街 41 号',
    '2014-06-18',
    '施工企业',
  ),
  reg(
    FAKE_INVALID_ID,
    '阳泉市平定县宏达建筑工程有限公司',
    wrongCode('91140321MA0RT2Y8D'),
    '孙宏达',
    25_000_000,
    '140321',
    '阳泉市平定县冠山镇西关街 19 号',
    '2016-02-29',
    '施工企业',
  ),
  reg(
    FAKE_MISSING_ID,
    '太原市龙城工程咨询有限公司',
    code('91140100MA0TW3K6E'),
    '',
    3_000_000,
    '140106',
    '太原市迎泽区迎泽大街 300 号',
    '2019-10-11',
    '监理企业',
  ),
  reg(
    FAKE_CLOSED_ID,
    '太原市晋祠古建筑修缮有限公司',
    code('91140100MA0UX5M2F'),
    '冯建国',
    6_000_000,
    '140112',
    '太原市晋源区晋祠路二段 15 号',
    '2007-05-09',
    '施工企业',
    '注销登记',
    '注销',
  ),
  reg(
    FAKE_DEMO_ID,
    '示例建设工程有限公司',
    FAKE_DEMO_CREDIT_CODE,
    '李明华',
    100_000_000,
    '140105',
    '太原市小店区长治路 227 号',
    '2008-06-18',
    '施工企业',
    '变更登记',
  ),
];

const CHANGING: Base = reg(
  FAKE_CHANGING_ID,
  '朔州市朔城区安泰电力工程有限公司',
  code('91140602MA0WY8N4G'),
  '白俊峰',
  40_000_000,
  '140602',
  '朔州市朔城区开发南路 9 号',
  '2008-10-10',
  '施工企业',
);

/** The registrations of a generation: each changed an hour apart up to `base`; the changing one newest from gen 2. */
export function fakeRegistrations(base: Date, generation: number): FakeRegistration[] {
  const HOUR = 3_600_000;
  const all = [...BASE, CHANGING];
  const rows = all.map((r, i) => ({
    ...r,
    updatedAt: new Date(base.getTime() - (all.length - i) * HOUR).toISOString(),
  }));
  if (generation >= 2) {
    const i = rows.findIndex((r) => r.id === FAKE_CHANGING_ID);
    rows[i] = {
      ...rows[i]!,
      legalPerson: '白晓燕',
      registeredCapital: (60_000_000).toFixed(2),
      regType: '变更登记',
      updatedAt: new Date(base.getTime() + generation * 60_000).toISOString(),
    };
  }
  return rows.sort((a, b) =>
    a.updatedAt === b.updatedAt ? a.id.localeCompare(b.id) : a.updatedAt < b.updatedAt ? -1 : 1,
  );
}

const appIdOk = (id: string) => id === FAKE_UPSTREAM_APP_ID || /^fake-dex-app-[A-Za-z0-9_-]{1,40}$/.test(id);

export async function startFakeUpstream(port = 0): Promise<FakeUpstream> {
  const base = new Date();
  /** failures waiting, by `${target}:${appId or *}` */
  const failures = new Map<string, { n: number; mode: FailMode; after: number }>();
  const generations = new Map<string, number>();
  let delayMs = 0;
  const received: Received[] = [];
  const accepted = new Map<string, number>();
  const registrationRequests: RegistrationQuery[] = [];

  /** Whether this request fails on purpose, and how (consumes one failure). */
  function failure(target: FailTarget, appId: string): FailMode | null {
    for (const key of [`${target}:${appId}`, `${target}:*`]) {
      const f = failures.get(key);
      if (!f || f.n <= 0) continue;
      if (f.after > 0) {
        f.after -= 1;
        return null;
      }
      f.n -= 1;
      return f.mode;
    }
    return null;
  }
  const failNext = (n: number, mode: FailMode = 'http-500', opts: FailOptions = {}) => {
    failures.set(`${opts.target ?? 'push'}:${opts.appId ?? '*'}`, { n, mode, after: opts.after ?? 0 });
  };
  const registrationsOf = (appId: string) => fakeRegistrations(base, generations.get(appId) ?? 1);

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const send = (status: number, data: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(data));
      };
      if (req.method === 'GET' && req.url === '/health') return send(200, { ok: true });
      if (req.method === 'POST' && req.url === '/control') {
        const c = JSON.parse(body || '{}') as {
          fail?: number;
          mode?: FailMode;
          target?: FailTarget;
          appId?: string;
          after?: number;
          delayMs?: number;
        };
        if (c.delayMs !== undefined) delayMs = c.delayMs;
        if (c.fail !== undefined) failNext(c.fail, c.mode, { target: c.target, appId: c.appId, after: c.after });
        return send(200, { ok: true });
      }
      if (req.method === 'GET' && req.url === '/received') return send(200, received);
      if (req.method !== 'POST' || (req.url !== '/push' && req.url !== '/registrations')) {
        return send(404, { message: 'not found' });
      }
      const h = (n: string) => String(req.headers[n] ?? '');
      const appId = h('x-app-id');
      const signatureOk =
        appIdOk(appId) && h('x-signature') === signPush(FAKE_UPSTREAM_SECRET, h('x-timestamp'), h('x-nonce'), body);
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(body);
      } catch {
        // recorded as null
      }

      if (req.url === '/registrations') {
        if (!signatureOk) return send(401, { code: 401, message: 'bad signature' });
        const q = (parsed ?? {}) as { since?: string | null; cursor?: string | null; pageSize?: number };
        const query: RegistrationQuery = {
          appId,
          since: q.since ?? null,
          cursor: q.cursor ?? null,
          pageSize: Math.min(200, Math.max(1, Number(q.pageSize) || 50)),
        };
        registrationRequests.push(query);
        // a request without a cursor starts a pull: the app's next generation of the data
        if (!query.cursor) generations.set(appId, (generations.get(appId) ?? 0) + 1);
        const mode = failure('registrations', appId);
        if (mode === 'timeout') return;
        if (mode) return send(500, { code: 500, message: 'upstream failure' });
        const all = registrationsOf(appId).filter((r) => !query.since || r.updatedAt >= query.since);
        const from = query.cursor ? Number(Buffer.from(query.cursor, 'base64url').toString('utf8')) : 0;
        if (!Number.isInteger(from) || from < 0) return send(200, { code: 40001, message: 'invalid cursor' });
        const records = all.slice(from, from + query.pageSize);
        const next = from + records.length;
        const answer = () =>
          send(200, {
            code: 0,
            message: 'ok',
            data: {
              total: all.length,
              records,
              nextCursor: next < all.length ? Buffer.from(String(next)).toString('base64url') : null,
            },
          });
        if (delayMs > 0) setTimeout(answer, delayMs);
        else answer();
        return;
      }

      const businessKey = h('idempotency-key');
      received.push({ businessKey, body: parsed, signatureOk });
      if (!signatureOk) return send(401, { message: 'bad signature' });
      const mode = failure('push', appId);
      if (mode === 'timeout') return; // never answers: the client's timeout ends it
      if (mode) return send(500, { message: 'upstream failure' });
      accepted.set(businessKey, (accepted.get(businessKey) ?? 0) + 1);
      return send(200, { code: 0, message: 'ok' });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    received,
    accepted,
    registrationRequests,
    failNext,
    setDelay(ms) {
      delayMs = ms;
    },
    registrations: (appId = FAKE_UPSTREAM_APP_ID) => registrationsOf(appId),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.FAKE_UPSTREAM_PORT ?? 19599);
  void startFakeUpstream(port).then((f) => process.stdout.write(`fake upstream on ${f.url}\n`));
}
