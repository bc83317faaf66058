import { TENDER_FILE_MESSAGES as M, TENDER_DOC_FILE_NODE } from '@ks/contracts';
import { and, count, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  files,
  operationLogs,
  tenderClarifications,
  tenderDocumentDownloads,
  tenderDocuments,
  tenderRegistrations,
  tenderSections,
  userMessages,
  users,
} from '../../db/schema';
import { bearer, client, createTestApp, loginToken, type TestApp } from '../../test/harness';
import { tableOf } from '../engine/sqlsafe';
import { client as filesClient, otherEnterpriseUser, PDF } from '../files/testkit';
import { projects } from './project';

/**
 * The 招标文件 tab through the API (issue 16): the project's side keeps a section's documents until they go on sale;
 * a registered bidder downloads them from the sale's start until the deadline, each download recorded in the request;
 * who downloaded is hidden from the tenderee before opening (counts only), the centre sees all, a bidder its own; a
 * clarification goes draft → submitted → passed (the centre) → sent (every registered bidder told), with the 15-day
 * rule checked on saving and again on sending, and the deadline moved; refusals change nothing.
 */
let t: TestApp;
const c = client(() => t);
const fc = filesClient(() => t);
const db = () => t.database.db;
const DAY = 86_400_000;
let admin: string;
let dev: string;
let user1: string;
let tenderee: string;
let bidder2: string;
let bidder3: string;
let park: string;
let adminId: string;
let user1Ent: string;
let bidder2Ent: string;
let codeNo = 0;
/** the first section's document, downloaded below */
let docId: string;
let docSection: string;

const P = {
  files: '/ks/trade/file/files',
  save: '/ks/trade/file/save',
  del: '/ks/trade/file/delete',
  download: '/ks/trade/file/download',
  status: '/ks/trade/file/download-status',
  records: '/ks/trade/file/records',
  cList: '/ks/clarify/file/list',
  cSave: '/ks/clarify/file/save',
  cSubmit: '/ks/clarify/file/submit',
  cAudit: '/ks/clarify/file/audit',
  cSend: '/ks/clarify/file/send',
  cDelete: '/ks/clarify/file/delete',
  cRevoke: '/ks/clarify/file/revoke',
};
/** The centre's calendar day `n` days from the clock (Beijing time). */
const day = (n: number) => new Date(t.clock.now.getTime() + n * DAY + 8 * 3_600_000).toISOString().slice(0, 10);
const inDays = (n: number) => new Date(t.clock.now.getTime() + n * DAY).toISOString();
const countOf = async (table: typeof tenderDocuments | typeof tenderClarifications) =>
  Number((await db().select({ n: count() }).from(table))[0]!.n);
const downloadsOf = async (sectionId: string) =>
  db().select().from(tenderDocumentDownloads).where(eq(tenderDocumentDownloads.sectionId, sectionId));
const logs = async (text: string) =>
  Number(
    (
      await db()
        .select({ n: count() })
        .from(operationLogs)
        .where(like(operationLogs.logbook, `%${text}%`))
    )[0]!.n,
  );

/** A section of the park project, published or not, its sale starting `saleFrom` days from now. */
async function newSection(o: { saleFrom: number; deadline: number; published?: boolean }) {
  const [s] = await db()
    .insert(tenderSections)
    .values({
      projectId: park,
      code: `ZSWJ-${++codeNo}`,
      name: `第${codeNo}标段`,
      estimate: 1_000_000,
      deposit: 20_000,
      docSaleStart: day(o.saleFrom),
      docSaleEnd: day(o.saleFrom + 6),
      bidDeadline: new Date(inDays(o.deadline)),
      noticePublishedAt: o.published === false ? null : t.clock.now,
      createdBy: adminId,
    })
    .returning();
  return s!;
}
async function registerEnt(sectionId: string, enterpriseId: string) {
  const [u] = await db().select().from(users).where(eq(users.enterpriseId, enterpriseId));
  await db().insert(tenderRegistrations).values({
    sectionId,
    enterpriseId,
    userId: u!.id,
    contact: '联系人',
    phone: '13800138000',
    registeredAt: t.clock.now,
  });
}
async function upload(token: string, name = '招标文件.pdf', data = PDF(4096)) {
  const r = await fc.upload('/ks/upload/v1/file-upload', token, {}, [{ name, data, type: 'application/pdf' }]);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { fileId: r.body.data.fileId as string, data };
}
const downloadAs = (token: string, id: string, ip = '10.1.2.3') =>
  t.app.inject({ method: 'GET', url: `${P.download}?id=${id}`, headers: bearer(token), remoteAddress: ip });

beforeAll(async () => {
  t = await createTestApp({ env: { SINGLE_SESSION: '0', SESSION_TTL_MINUTES: String(60 * 24 * 30) } });
  [admin, dev, user1] = await Promise.all([
    loginToken(t.app, 'admin', 'M'),
    loginToken(t.app, 'dev', 'D'),
    loginToken(t.app, 'user1', 'U'),
  ]);
  const [a] = await db().select().from(users).where(eq(users.account, 'admin'));
  const [u1] = await db().select().from(users).where(eq(users.account, 'user1'));
  adminId = a!.id;
  user1Ent = u1!.enterpriseId!;
  const z = await otherEnterpriseUser(t, 'zbr-zswj');
  tenderee = z.token;
  const b2 = await otherEnterpriseUser(t, 'bidder-zswj2');
  bidder2 = b2.token;
  bidder2Ent = b2.enterpriseId;
  bidder3 = (await otherEnterpriseUser(t, 'bidder-zswj3')).token;
  // the tenderee entered the park project itself: it is the project's side (owner and enterprise), the centre is not
  park = (await projects.list(db(), { where: { xmbh: 'SXGC-2026-1103' } }))[0]!.id;
  await db().execute(
    sql.raw(
      `update ${tableOf('ZBTB_XMDJ')} set enterprise_id = '${z.enterpriseId}', owner_id = '${z.userId}' where id = '${park}'`,
    ),
  );
}, 60_000);
afterAll(async () => t?.close());

describe('the demo', () => {
  it("has each open section's 招标文件, user1's download of 太原 BD-01's and one clarification sent", async () => {
    // the sections still open for bids (the opening and evaluation demos, opened already, have their notice only)
    const published = await db()
      .select()
      .from(tenderSections)
      .where(sql`${tenderSections.noticePublishedAt} is not null and ${tenderSections.bidDeadline} > now()`);
    expect(published.length).toBeGreaterThanOrEqual(3);
    for (const s of published) {
      const r = await c.post(P.files, admin, { sectionId: s.id });
      expect(r.body.data.documents.map((d: { kind: string }) => d.kind)).toEqual(['招标文件']);
    }
    const school = (await projects.list(db(), { where: { xmbh: 'SXGC-2026-1101' } }))[0]!;
    const bd1 = published.find((s) => s.projectId === school.id && s.code === 'BD-01')!;
    const mine = await c.post(P.status, user1, { sectionId: bd1.id });
    expect(mine.body.data).toMatchObject({ visibility: 'own', totalDownloads: 1 });
    const sent = await c.post(P.cList, user1, { sectionId: bd1.id });
    expect(sent.body.data.clarifications).toHaveLength(1);
    expect(sent.body.data.clarifications[0]).toMatchObject({ status: 'sent', auditedBy: '平台管理员' });
    const told = await db().select().from(userMessages).where(like(userMessages.title, '招标文件澄清或修改%'));
    expect(told.length).toBeGreaterThan(0);
  });
});

describe('tender documents and their downloads', () => {
  let section: Awaited<ReturnType<typeof newSection>>;
  let bytes: Buffer;

  it('are saved by the project side only; bad input and foreign files are refused with nothing written', async () => {
    section = await newSection({ saleFrom: 2, deadline: 30 });
    await registerEnt(section.id, user1Ent);
    await registerEnt(section.id, bidder2Ent);
    const up = await upload(tenderee);
    bytes = up.data;
    const body = { sectionId: section.id, fileId: up.fileId, name: '第一卷 招标文件（正文）', kind: '招标文件' };
    const before = await countOf(tenderDocuments);
    // a registered bidder, the centre (not of this side), a developer, a stranger
    expect((await c.post(P.save, user1, body)).body.message).toBe(M.notSide);
    expect((await c.post(P.save, user1, body)).status).toBe(403);
    expect((await c.post(P.save, admin, body)).status).toBe(403);
    expect((await c.post(P.save, dev, body)).status).toBe(403);
    expect((await c.post(P.save, bidder3, body)).status).toBe(404);
    // bad input: 400 before anything is written
    const bad = await c.post(P.save, tenderee, { ...body, kind: '合同' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('文件类别');
    expect((await c.post(P.save, tenderee, { ...body, name: '  ' })).status).toBe(400);
    // someone else's upload is not the side's to attach
    const foreign = await upload(bidder3, '别家的.pdf');
    const f = await c.post(P.save, tenderee, { ...body, fileId: foreign.fileId });
    expect(f.status).toBe(400);
    expect(f.body.message).toBe(M.fileMissing);
    expect(await countOf(tenderDocuments)).toBe(before);

    const ok = await c.post(P.save, tenderee, body);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ kind: '招标文件', name: '第一卷 招标文件（正文）', fileName: '招标文件.pdf' });
    docId = ok.body.data.id;
    docSection = section.id;
    expect(await logs(`上传招标文件「第一卷 招标文件（正文）」`)).toBe(1);
    // the same file is one document only
    expect((await c.post(P.save, tenderee, body)).status).toBe(400);
    // the file is bound to the document: a bidder cannot fetch it past the record
    const [row] = await db().select().from(files).where(eq(files.id, up.fileId));
    expect(row).toMatchObject({ gnCoding: TENDER_DOC_FILE_NODE, recordId: docId });
    const direct = await fc.get(`/ks/common/common/file/download?fileId=${up.fileId}`, user1);
    expect(direct.status).not.toBe(200);
  });

  it('are listed to the side, the centre and registered bidders; a stranger is refused', async () => {
    const side = await c.post(P.files, tenderee, { sectionId: section.id });
    expect(side.body.data).toMatchObject({ role: 'side', canEdit: true, editProblem: null });
    expect(side.body.data.documents).toHaveLength(1);
    const bidder = await c.post(P.files, user1, { sectionId: section.id });
    expect(bidder.body.data).toMatchObject({ role: 'bidder', canEdit: false, canDownload: false });
    expect(bidder.body.data.downloadProblem).toBe(M.notOnSale);
    expect((await c.post(P.files, admin, { sectionId: section.id })).body.data.role).toBe('centre');
    const stranger = await c.post(P.files, bidder3, { sectionId: section.id });
    expect(stranger.status).toBe(403);
    expect(stranger.body.message).toBe(M.notViewer);
  });

  it('may be deleted before the sale starts (the file is let go)', async () => {
    const up = await upload(tenderee, '图纸.pdf');
    const saved = await c.post(P.save, tenderee, {
      sectionId: section.id,
      fileId: up.fileId,
      name: '施工图',
      kind: '图纸',
    });
    expect((await c.post(P.del, user1, { id: saved.body.data.id })).status).toBe(403);
    const r = await c.post(P.del, tenderee, { id: saved.body.data.id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await db().select().from(tenderDocuments).where(eq(tenderDocuments.id, saved.body.data.id))).toHaveLength(0);
    const [f] = await db().select().from(files).where(eq(files.id, up.fileId));
    expect(f!.recordId).toBeNull();
    expect(await logs('删除图纸「施工图」')).toBe(1);
  });

  it('are not downloaded before the sale, nor by an enterprise that did not register', async () => {
    const early = await downloadAs(user1, docId);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(M.notOnSale);
    const stranger = await downloadAs(bidder3, docId);
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().message).toBe(M.notRegistered);
    expect((await downloadAs(dev, docId)).statusCode).toBe(403);
    expect(await downloadsOf(section.id)).toHaveLength(0);
  });

  it('are downloaded from the sale start, streamed and recorded in the same request', async () => {
    t.clock.advance(2 * DAY);
    const r = await downloadAs(user1, docId);
    expect(r.statusCode, r.body).toBe(200);
    expect(Buffer.compare(r.rawPayload, bytes)).toBe(0);
    expect(String(r.headers['content-disposition'])).toContain('attachment');
    const rows = await downloadsOf(section.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      documentId: docId,
      sectionId: section.id,
      enterpriseId: user1Ent,
      userName: '张建国',
      ip: '10.1.2.3',
    });
    expect(rows[0]!.downloadedAt.toISOString()).toBe(t.clock.now.toISOString());
    expect((await downloadAs(bidder2, docId, '10.9.9.9')).statusCode).toBe(200);
    expect((await downloadAs(user1, docId)).statusCode).toBe(200);
    // the side reads its own document without it counting as a bidder's download
    expect((await downloadAs(tenderee, docId)).statusCode).toBe(200);
    expect(await downloadsOf(section.id)).toHaveLength(3);
  });

  it('cannot be deleted or added once on sale: changes go by clarification', async () => {
    const del = await c.post(P.del, tenderee, { id: docId });
    expect(del.status).toBe(409);
    expect(del.body.message).toBe(M.locked);
    const up = await upload(tenderee, '补遗.pdf');
    const add = await c.post(P.save, tenderee, {
      sectionId: section.id,
      fileId: up.fileId,
      name: '补遗',
      kind: '其他',
    });
    expect(add.status).toBe(409);
    expect(await db().select().from(tenderDocuments).where(eq(tenderDocuments.sectionId, section.id))).toHaveLength(1);
    expect((await c.post(P.files, tenderee, { sectionId: section.id })).body.data).toMatchObject({
      canEdit: false,
      editProblem: M.locked,
    });
  });

  it('download status: counts only for the tenderee before opening, all for the centre, own for a bidder', async () => {
    const side = await c.post(P.status, tenderee, { sectionId: section.id });
    expect(side.status).toBe(200);
    expect(side.body.data).toMatchObject({
      visibility: 'counts',
      note: M.hiddenBeforeOpening,
      totalDownloads: 3,
      totalEnterprises: 2,
      records: [],
    });
    expect(side.body.data.documents[0]).toMatchObject({ documentId: docId, downloads: 3, enterprises: 2 });
    expect(JSON.stringify(side.body.data)).not.toContain('示例建设');
    const centre = await c.post(P.status, admin, { sectionId: section.id });
    expect(centre.body.data.visibility).toBe('full');
    expect(centre.body.data.records).toHaveLength(3);
    expect(centre.body.data.records.map((r: { userName: string }) => r.userName)).toContain('张建国');
    const own = await c.post(P.status, user1, { sectionId: section.id });
    expect(own.body.data).toMatchObject({ visibility: 'own', totalDownloads: 2, totalEnterprises: 1 });
    expect(own.body.data.records).toHaveLength(2);
    expect(own.body.data.records.every((r: { userName: string }) => r.userName === '张建国')).toBe(true);
    expect((await c.post(P.status, dev, { sectionId: section.id })).body.data.visibility).toBe('counts');
    expect((await c.post(P.status, bidder3, { sectionId: section.id })).status).toBe(403);
  });

  it('records are paged for the centre only, filtered by section', async () => {
    const r = await c.post(P.records, admin, { sectionId: section.id, page: 1, pageSize: 10 });
    expect(r.status).toBe(200);
    expect(r.body.data.total).toBe(3);
    expect(r.body.data.records[0]).toMatchObject({ documentName: '第一卷 招标文件（正文）', kind: '招标文件' });
    expect(r.body.data.records[0].sectionLabel).toContain('SXGC-2026-1103');
    expect(
      (await c.post(P.records, admin, { sectionId: section.id, page: 2, pageSize: 10 })).body.data.records,
    ).toEqual([]);
    expect((await c.post(P.records, admin, { pageSize: 7 })).status).toBe(400);
    expect((await c.post(P.records, tenderee, {})).status).toBe(403);
    expect((await c.post(P.records, user1, {})).status).toBe(403);
  });
});

describe('clarifications', () => {
  let section: Awaited<ReturnType<typeof newSection>>;
  let id: string;
  let version: number;
  const draft = (patch: object = {}) => ({
    sectionId: section.id,
    title: '关于工程量清单第 3 章的澄清',
    content: '第 3 章 3.2 节 C30 混凝土工程量由 1,200 m³ 更正为 1,260 m³，其余不变。',
    affectsBids: true,
    ...patch,
  });

  it('are drafted by the project side only; bad input is refused with nothing written', async () => {
    section = await newSection({ saleFrom: -1, deadline: 30 });
    await registerEnt(section.id, user1Ent);
    const before = await countOf(tenderClarifications);
    expect((await c.post(P.cSave, user1, draft())).status).toBe(403);
    expect((await c.post(P.cSave, admin, draft())).status).toBe(403);
    expect((await c.post(P.cSave, dev, draft())).status).toBe(403);
    expect((await c.post(P.cSave, bidder3, draft())).status).toBe(404);
    expect((await c.post(P.cSave, tenderee, draft({ title: '' }))).status).toBe(400);
    expect((await c.post(P.cSave, tenderee, draft({ newDeadline: 'tomorrow' }))).status).toBe(400);
    const earlier = await c.post(P.cSave, tenderee, draft({ newDeadline: inDays(20) }));
    expect(earlier.status).toBe(400);
    expect(earlier.body.message).toBe(M.laterDeadline);
    expect(await countOf(tenderClarifications)).toBe(before);

    const r = await c.post(P.cSave, tenderee, draft());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ status: 'draft', affectsBids: true, newDeadline: null });
    expect(r.body.data.operations).toMatchObject({
      edit: true,
      delete: true,
      submit: true,
      revoke: false,
      send: false,
    });
    id = r.body.data.id;
    version = r.body.data.version;
    // a bidder sees only sent ones
    const seen = await c.post(P.cList, user1, { sectionId: section.id });
    expect(seen.body.data.clarifications).toEqual([]);
  });

  it('moves draft → submitted → (revoked) → submitted → passed → sent, each step in its state only', async () => {
    const sub = await c.post(P.cSubmit, tenderee, { id, version });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    expect(sub.body.data.status).toBe('submitted');
    // a submitted one is neither edited nor deleted, nor sent
    expect((await c.post(P.cSave, tenderee, draft({ id }))).body.message).toBe(M.notDraft);
    const del = await c.post(P.cDelete, tenderee, { id });
    expect(del.status).toBe(409);
    expect(del.body.message).toBe(M.notDraft);
    expect((await c.post(P.cSend, tenderee, { id })).body.message).toBe(M.notPassed);
    // revoked back to a draft, and only once
    expect((await c.post(P.cRevoke, user1, { id })).status).toBe(403);
    const rev = await c.post(P.cRevoke, tenderee, { id });
    expect(rev.body.data.status).toBe('draft');
    const again = await c.post(P.cRevoke, tenderee, { id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(M.notSubmitted);
    // a stale version is refused
    expect((await c.post(P.cSubmit, tenderee, { id, version })).status).toBe(409);
    const sub2 = await c.post(P.cSubmit, tenderee, { id, version: rev.body.data.version });
    expect(sub2.body.data.status).toBe('submitted');

    // the centre audits: the side may not; a rejection needs an opinion
    expect((await c.post(P.cAudit, tenderee, { id, pass: true })).status).toBe(403);
    const noOpinion = await c.post(P.cAudit, admin, { id, pass: false });
    expect(noOpinion.status).toBe(400);
    expect(noOpinion.body.message).toBe(M.opinionRequired);
    const passed = await c.post(P.cAudit, admin, { id, pass: true, opinion: '同意发出' });
    expect(passed.status).toBe(200);
    expect(passed.body.data).toMatchObject({ status: 'passed', auditedBy: '平台管理员', opinion: '同意发出' });
    expect((await c.post(P.cRevoke, tenderee, { id })).status).toBe(409);
    expect((await c.post(P.cAudit, admin, { id, pass: true })).status).toBe(409);

    const before = await db()
      .select()
      .from(userMessages)
      .where(like(userMessages.title, '%关于工程量清单第 3 章的澄清%'));
    expect(before).toHaveLength(0);
    expect((await c.post(P.cSend, user1, { id })).status).toBe(403);
    const sent = await c.post(P.cSend, tenderee, { id });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({ status: 'sent', oldDeadline: null });
    expect(sent.body.data.sentAt).toBe(t.clock.now.toISOString());
    expect(sent.body.data.recipients).toBeGreaterThan(0);
    const told = await db()
      .select({ userId: userMessages.userId, enterpriseId: users.enterpriseId })
      .from(userMessages)
      .innerJoin(users, eq(users.id, userMessages.userId))
      .where(like(userMessages.title, '%关于工程量清单第 3 章的澄清%'));
    expect(told.length).toBe(sent.body.data.recipients);
    expect(told.every((m) => m.enterpriseId === user1Ent)).toBe(true);
    expect((await c.post(P.cSend, tenderee, { id })).body.message).toBe(M.alreadySent);
    // the bidder now sees it
    const seen = await c.post(P.cList, user1, { sectionId: section.id });
    expect(seen.body.data.clarifications.map((x: { id: string }) => x.id)).toEqual([id]);
    expect(await logs('发出标段')).toBeGreaterThanOrEqual(1);
  });

  it('deletes drafts only', async () => {
    const r = await c.post(P.cSave, tenderee, draft({ title: '待删除的澄清', affectsBids: false }));
    expect((await c.post(P.cDelete, user1, { id: r.body.data.id })).status).toBe(403);
    expect((await c.post(P.cDelete, tenderee, { id: r.body.data.id })).status).toBe(200);
    expect(await db().select().from(tenderClarifications).where(eq(tenderClarifications.id, r.body.data.id))).toEqual(
      [],
    );
  });

  it('holds the 15-day rule on saving and again on sending, and moves the deadline', async () => {
    const near = await newSection({ saleFrom: -10, deadline: 10 });
    await registerEnt(near.id, user1Ent);
    const body = (patch: object = {}) => draft({ sectionId: near.id, title: '关于技术标准的修改', ...patch });
    const before = await countOf(tenderClarifications);
    const noMove = await c.post(P.cSave, tenderee, body());
    expect(noMove.status).toBe(400);
    expect(noMove.body.message).toContain('第二十一条');
    expect(noMove.body.message).toContain('15 日');
    expect((await c.post(P.cSave, tenderee, body({ newDeadline: inDays(12) }))).status).toBe(400);
    expect(await countOf(tenderClarifications)).toBe(before);
    // one that does not affect the bids needs no move
    expect((await c.post(P.cSave, tenderee, body({ affectsBids: false, title: '勘误' }))).status).toBe(200);

    const tight = await c.post(P.cSave, tenderee, body({ newDeadline: inDays(16) }));
    expect(tight.status, JSON.stringify(tight.body)).toBe(200);
    const roomy = await c.post(P.cSave, tenderee, body({ title: '关于技术标准的修改（二）', newDeadline: inDays(20) }));
    for (const r of [tight, roomy]) {
      const s = await c.post(P.cSubmit, tenderee, { id: r.body.data.id });
      expect(s.status, JSON.stringify(s.body)).toBe(200);
      expect((await c.post(P.cAudit, admin, { id: r.body.data.id, pass: true })).status).toBe(200);
    }
    // two days pass: 16 days out is now fewer than 15 days after sending
    t.clock.advance(2 * DAY);
    const refused = await c.post(P.cSend, tenderee, { id: tight.body.data.id });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('不能发出');
    expect(refused.body.message).toContain('招标投标法实施条例第二十一条');
    const [unchanged] = await db().select().from(tenderSections).where(eq(tenderSections.id, near.id));
    expect(unchanged!.bidDeadline.toISOString()).toBe(near.bidDeadline.toISOString());
    expect(
      await db().select().from(tenderClarifications).where(eq(tenderClarifications.id, tight.body.data.id)),
    ).toMatchObject([{ status: 'passed', sentAt: null }]);
    expect(
      await db()
        .select()
        .from(userMessages)
        .where(and(like(userMessages.title, '%关于技术标准的修改%'))),
    ).toHaveLength(0);

    const ok = await c.post(P.cSend, tenderee, { id: roomy.body.data.id });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.oldDeadline).toBe(near.bidDeadline.toISOString());
    const [moved] = await db().select().from(tenderSections).where(eq(tenderSections.id, near.id));
    expect(moved!.bidDeadline.toISOString()).toBe(roomy.body.data.newDeadline);
    expect(moved!.version).toBe(near.version + 1);
    expect(await logs('因澄清或修改《关于技术标准的修改（二）》投标截止（开标）时间由')).toBe(1);
    // the section's documents and clarifications answer the new deadline
    expect((await c.post(P.cList, tenderee, { sectionId: near.id })).body.data.bidDeadline).toBe(
      roomy.body.data.newDeadline,
    );
  });

  it('refuses downloads and changes after the deadline; the tenderee then sees who downloaded', async () => {
    t.clock.advance(30 * DAY);
    // sessions last 30 days at most: sign in again
    user1 = await loginToken(t.app, 'user1', 'U');
    tenderee = await loginToken(t.app, 'zbr-zswj', 'U');
    const late = await downloadAs(user1, docId);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(M.downloadClosed);
    const status = await c.post(P.status, tenderee, { sectionId: docSection });
    expect(status.body.data).toMatchObject({ visibility: 'full', opened: true, note: null });
    expect(status.body.data.records.length).toBe(3);
    expect((await c.post(P.cSave, tenderee, draft())).status).toBe(409);
  });
});

describe('section attachments (bd/attachments) and the files of a project (bd-files)', () => {
  it('list documents with their downloads and clarification files to readers of the project, the supervisor too', async () => {
    // fresh sessions: the tests above moved the clock on
    const [supervisor, centre] = await Promise.all([
      loginToken(t.app, 'supervisor', 'U'),
      loginToken(t.app, 'admin', 'M'),
    ]);
    // a clarification draft that carries a file, on a section of its own
    const section = await newSection({ saleFrom: -1, deadline: 30 });
    const f = await upload(tenderee, '澄清说明.pdf');
    const saved = await c.post(P.cSave, tenderee, {
      sectionId: section.id,
      title: '关于图纸第 2 册的澄清',
      content: '图纸第 2 册结施-05 钢筋等级更正为 HRB400。',
      affectsBids: false,
      fileId: f.fileId,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const one = await c.get(`/ks/xmrc/v1/bd/attachments?sectionId=${section.id}`, supervisor);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body!.data).toMatchObject({ sectionId: section.id, sectionCode: section.code });
    expect(one.body!.data.attachments).toEqual([
      expect.objectContaining({
        source: 'clarification',
        kind: '澄清文件',
        name: '关于图纸第 2 册的澄清',
        fileId: f.fileId,
        fileName: '澄清说明.pdf',
        fileSize: f.data.length,
        status: 'draft',
        downloads: null,
      }),
    ]);
    // the documents of the section downloaded above, with the bidders' recorded downloads
    const docs = await c.get(`/ks/xmrc/v1/bd/attachments?sectionId=${docSection}`, tenderee);
    expect(docs.status).toBe(200);
    const doc = docs.body!.data.attachments.find((a: { id: string }) => a.id === docId);
    const recorded = (await downloadsOf(docSection)).filter((d) => d.documentId === docId).length;
    expect(recorded).toBeGreaterThan(0);
    expect(doc).toMatchObject({ source: 'document', kind: '招标文件', downloads: recorded, status: null });
    // the supervisor reads the file itself through the files module
    const file = await fc.get(`/ks/common/common/file/download?fileId=${doc.fileId}`, supervisor);
    expect(file.status).toBe(200);

    // bd-files: every section of the project, the same attachments
    const all = await c.get(`/ks/xmrc/v1/bd-files?projectId=${park}`, supervisor);
    expect(all.status).toBe(200);
    const codes = all.body!.data.sections.map((s: { sectionCode: string }) => s.sectionCode);
    expect(codes).toEqual([...codes].sort());
    expect(all.body!.data.sections.find((s: { sectionId: string }) => s.sectionId === section.id)).toEqual(
      one.body!.data,
    );
    expect((await c.get(`/ks/xmrc/v1/bd-files?projectId=${park}`, centre)).status).toBe(200);
  });

  it('refuse a registered bidder (403: download through 招标文件), anyone else (404) and malformed ids (400)', async () => {
    const admin = await loginToken(t.app, 'admin', 'M');
    const registered = await c.get(`/ks/xmrc/v1/bd/attachments?sectionId=${docSection}`, user1);
    expect(registered.status).toBe(403);
    expect(registered.body!.message).toContain('投标人请在「招标文件」中下载');
    const stranger = (await otherEnterpriseUser(t, 'stranger-bdfj')).token;
    expect((await c.get(`/ks/xmrc/v1/bd/attachments?sectionId=${docSection}`, stranger)).status).toBe(404);
    expect((await c.get(`/ks/xmrc/v1/bd-files?projectId=${park}`, user1)).status).toBe(404);
    expect((await c.get('/ks/xmrc/v1/bd/attachments?sectionId=x', admin)).status).toBe(400);
    expect((await c.get('/ks/xmrc/v1/bd-files', admin)).status).toBe(400);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await c.get(`/ks/xmrc/v1/bd/attachments?sectionId=${unknown}`, admin)).status).toBe(404);
    expect((await c.get(`/ks/xmrc/v1/bd-files?projectId=${unknown}`, admin)).status).toBe(404);
  });
});
