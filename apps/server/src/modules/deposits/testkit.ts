import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { enterprises, tenderRegistrations, tenderSections, users } from '../../db/schema';
import { formPdf } from '../files/templates/pdf';

/**
 * Test kit of deposits and guarantee letters: a local fake of the guarantee issuer's API (the documented calls of
 * platform/integrations/guarantee-issuer.ts) that the test starts and steers, and direct inserts of sections and
 * registrations (the registration endpoint is another module's).
 */
/** What the fake reads of an application (the documented body). */
export interface SentApplication {
  applyNo: string;
  applicant: { name: string; creditCode: string };
  beneficiary: { name: string };
  section: { code: string; name: string };
  amount: number;
}

export type FakeMode = 'ok' | 'instant' | 'down' | 'reject';

export interface FakeIssuer {
  url: string;
  key: string;
  mode: FakeMode;
  /** answers to a result query before the letter is issued (0: issued at the first query) */
  pendingQueries: number;
  requests: {
    method: string;
    path: string;
    auth: string | undefined;
    idempotencyKey: string | undefined;
    body: SentApplication;
  }[];
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = '';
    req.on('data', (c) => {
      s += c;
    });
    req.on('end', () => resolve(s));
  });

export async function startFakeIssuer(key = 'fake-issuer-key-2026'): Promise<FakeIssuer> {
  const orders = new Map<
    string,
    { applyNo: string; issued: boolean; queries: number; no: string; body: SentApplication }
  >();
  const byApply = new Map<string, string>();
  let n = 0;
  const fake: FakeIssuer = {
    url: '',
    key,
    mode: 'ok',
    pendingQueries: 0,
    requests: [],
    close: async () => undefined,
  };
  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const body = (raw ? JSON.parse(raw) : null) as SentApplication;
    const path = req.url ?? '';
    fake.requests.push({
      method: req.method ?? '',
      path,
      auth: req.headers.authorization,
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      body,
    });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.headers.authorization !== `Bearer ${key}`) return send(401, { message: '密钥无效' });
    if (fake.mode === 'down') return send(503, { message: '系统维护中' });
    const orderOut = (o: { no: string; issued: boolean }, orderNo: string) => ({
      orderNo,
      status: o.issued ? 'issued' : 'processing',
      guaranteeNo: o.issued ? o.no : undefined,
      issuedAt: o.issued ? new Date().toISOString() : undefined,
    });
    if (req.method === 'POST' && path === '/v1/guarantees') {
      if (fake.mode === 'reject')
        return send(200, { orderNo: `R${++n}`, status: 'rejected', message: '申请人授信额度不足' });
      const known = byApply.get(body.applyNo);
      if (known) return send(200, orderOut(orders.get(known)!, known));
      const orderNo = `ORD${String(++n).padStart(6, '0')}`;
      const o = {
        applyNo: body.applyNo,
        issued: fake.mode === 'instant',
        queries: 0,
        no: `BH2026${String(n).padStart(6, '0')}`,
        body,
      };
      orders.set(orderNo, o);
      byApply.set(body.applyNo, orderNo);
      return send(200, orderOut(o, orderNo));
    }
    const m = /^\/v1\/guarantees\/([^/]+)(\/letter)?$/.exec(path);
    const o = m ? orders.get(decodeURIComponent(m[1]!)) : undefined;
    if (!m || !o || req.method !== 'GET') return send(404, { message: '订单不存在' });
    if (m[2]) {
      if (!o.issued) return send(409, { message: '尚未出函' });
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end(
        formPdf({
          file: 'letter.pdf',
          title: '投标保函',
          note: `保函编号：${o.no}`,
          rows: [
            ['申请人', String(o.body.applicant.name)],
            ['受益人', String(o.body.beneficiary.name)],
            ['标段', `${o.body.section.code} ${o.body.section.name}`],
            ['担保金额（元）', String(o.body.amount)],
          ],
          footer: ['出函机构（电子签章）'],
        }),
      );
    }
    o.queries++;
    if (o.queries > fake.pendingQueries) o.issued = true;
    return send(200, orderOut(o, m[1]!));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}

/** A section of a project inserted directly (the timeline rules are the tender module's tests). */
export async function insertSection(
  db: DbOrTx,
  v: { projectId: string; code: string; deposit: number; bidDeadline: Date; createdBy: string },
) {
  const [s] = await db
    .insert(tenderSections)
    .values({
      projectId: v.projectId,
      code: v.code,
      name: `${v.code} 施工`,
      estimate: v.deposit * 50,
      deposit: v.deposit,
      docSaleStart: '2026-01-01',
      docSaleEnd: '2026-01-06',
      bidDeadline: v.bidDeadline,
      createdBy: v.createdBy,
    })
    .returning();
  return s!;
}

export async function register(db: DbOrTx, sectionId: string, account: string, at: Date) {
  const [u] = await db.select().from(users).where(eq(users.account, account));
  await db.insert(tenderRegistrations).values({
    sectionId,
    enterpriseId: u!.enterpriseId!,
    userId: u!.id,
    contact: u!.userName.slice(0, 20),
    phone: '13800138000',
    registeredAt: at,
  });
}

export async function enterpriseOf(db: DbOrTx, account: string) {
  const [u] = await db.select().from(users).where(eq(users.account, account));
  const [e] = await db.select().from(enterprises).where(eq(enterprises.id, u!.enterpriseId!));
  return { user: u!, enterprise: e! };
}
