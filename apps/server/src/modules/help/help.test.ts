import { rmSync } from 'node:fs';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, helpFaqs, liveEvents, operationLogs } from '../../db/schema';
import { createTestApp, loginToken, type TestApp } from '../../test/harness';
import { client, md5, otherEnterpriseUser, PDF, tmpDataDir } from '../files/testkit';

let t: TestApp;
let dataDir: string;
let admin: string;
let user: string;
let dev: string;
let other: { token: string; userId: string };
const api = client(() => t);

beforeAll(async () => {
  dataDir = tmpDataDir();
  t = await createTestApp({ env: { DATA_DIR: dataDir, SINGLE_SESSION: '0' } });
  admin = await loginToken(t.app, 'admin', 'M');
  user = await loginToken(t.app, 'user1', 'U');
  dev = await loginToken(t.app, 'dev', 'D');
  other = await otherEnterpriseUser(t, 'chat-other');
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const TREE = '/ks/guide/node/descritons';
const FAQ = '/ks/guide/node/faq-list';

describe('help viewer', () => {
  it('answers the seeded help tree of the credit system and node, with files any signed-in user may open', async () => {
    const sys = await api.post(TREE, user, { systemCoding: 'XYGL' });
    expect(sys.status).toBe(200);
    expect(sys.body.data.map((g: any) => g.groupName)).toEqual(['系统使用说明']);
    const node = await api.post(TREE, user, { systemCoding: 'XYGL', gnCoding: 'XYGL_BGSQ' });
    // the node's own group first, then the system's
    expect(node.body.data.map((g: any) => g.groupName)).toEqual(['信用变更申请', '系统使用说明']);
    const file = node.body.data[0].children[0];
    expect(file).toMatchObject({ fileName: '信用变更申请操作指南.pdf', kind: 'pdf' });
    expect(file.filePath).toContain(file.fileId);
    // another enterprise's user (not the uploader's side) may open it (a preview address)
    const preview = await api.get(`/ks/common/common/file/preview-url?fileId=${file.fileId}`, other.token);
    expect(preview.status).toBe(200);
  });

  it('answers the FAQ of a node (its own first) and of a system', async () => {
    const node = await api.post(FAQ, user, { systemCoding: 'XYGL', gnCoding: 'XYGL_BGSQ' });
    expect(node.body.data[0].question).toBe('信用变更怎么申请？');
    const sys = await api.post(FAQ, user, { systemCoding: 'XYGL' });
    expect(sys.body.data.map((f: any) => f.question)).toContain('忘记密码怎么办？');
    expect(sys.body.data.map((f: any) => f.question)).not.toContain('信用变更怎么申请？');
    expect((await api.post(FAQ, user, { systemCoding: 'NOPE' })).body.data).toEqual([]);
  });

  it('refuses bad input with 400', async () => {
    expect((await api.post(TREE, user, { systemCoding: '1; drop' })).status).toBe(400);
    expect((await api.post(FAQ, user, {})).status).toBe(400);
    expect((await api.post('/ks/service/v1/robot/ask', user, { question: '' })).status).toBe(400);
    expect((await api.post('/ks/guide/admin/faq/save', admin, { systemCoding: 'XYGL', question: '问' })).status).toBe(
      400,
    );
    expect(
      (await api.post('/ks/guide/admin/group/save', admin, { systemCoding: 'NOSYS', groupName: '组' })).status,
    ).toBe(400);
    expect(
      (
        await api.post('/ks/guide/admin/group/save', admin, {
          systemCoding: 'XYGL',
          gnCoding: 'ZBTB_ZBGG',
          groupName: '组',
        })
      ).status,
    ).toBe(400);
  });
});

describe('help administration', () => {
  it('is for administrators only', async () => {
    expect((await api.get('/ks/guide/admin/help?systemCoding=XYGL', user)).status).toBe(403);
    expect((await api.get('/ks/guide/admin/help?systemCoding=XYGL', dev)).status).toBe(403);
    expect(
      (await api.post('/ks/guide/admin/faq/save', user, { systemCoding: 'XYGL', question: 'q', answer: 'a' })).status,
    ).toBe(403);
    // help files are uploaded by administrators only
    const data = PDF(4096);
    const task = await api.post('/ks/upload/v1/upload-task', user, {
      md5: md5(data),
      fileName: '手册.pdf',
      chunk: 1,
      fileSize: data.length,
      usage: 'help',
    });
    expect(task.status).toBe(403);
  });

  it('uploads a PDF through the chunked upload, adds it to a new group, edits FAQ, each with an op-log row', async () => {
    const g = await api.post('/ks/guide/admin/group/save', admin, {
      systemCoding: 'XYGL',
      gnCoding: 'XYGL_ZYZC',
      groupName: '执业注册',
    });
    expect(g.status).toBe(200);
    const data = PDF(6000);
    const task = await api.post('/ks/upload/v1/upload-task', admin, {
      md5: md5(data),
      fileName: '执业注册指南.pdf',
      chunk: 1,
      fileSize: data.length,
      usage: 'help',
    });
    expect(task.status).toBe(200);
    const uploadId = task.body.data.uploadId;
    const chunk = await api.upload('/ks/upload/v1/chunk-upload', admin, { chunk: 0, uploadId, md5: md5(data) }, [
      { field: 'file', name: 'blob', data },
    ]);
    expect(chunk.status).toBe(200);
    const merged = await api.post('/ks/upload/v1/file-merge', admin, {
      uploadId,
      fileName: '执业注册指南.pdf',
      md5: md5(data),
    });
    expect(merged.status).toBe(200);
    const fileId = merged.body.data.fileId;
    // a user cannot read it before it is in the help tree
    expect((await api.get(`/ks/common/common/file/preview-url?fileId=${fileId}`, user)).status).toBe(404);
    const added = await api.post('/ks/guide/admin/file/add', admin, { groupId: g.body.data.id, fileId });
    expect(added.status).toBe(200);
    // now any signed-in user reads it: through a preview address, a PDF inline
    const preview = await api.get(`/ks/common/common/file/preview-url?fileId=${fileId}`, other.token);
    expect(preview.status).toBe(200);
    const pdf = await api.get(preview.body!.data.url, null);
    expect(pdf.status).toBe(200);
    expect(pdf.res.headers['content-type']).toBe('application/pdf');
    expect(pdf.res.rawPayload.equals(data)).toBe(true);
    // a file not uploaded as help is refused
    expect((await api.post('/ks/guide/admin/file/add', admin, { groupId: g.body.data.id, fileId })).status).toBe(400);

    const tree = await api.post(TREE, user, { systemCoding: 'XYGL', gnCoding: 'XYGL_ZYZC' });
    expect(tree.body.data[0]).toMatchObject({ groupName: '执业注册', children: [{ fileName: '执业注册指南.pdf' }] });

    const faq = await api.post('/ks/guide/admin/faq/save', admin, {
      systemCoding: 'XYGL',
      gnCoding: 'XYGL_ZYZC',
      question: '执业注册需要哪些材料？',
      answer: '身份证、执业资格证书和盖章的执业注册申请表。',
    });
    expect(faq.status).toBe(200);
    const edited = await api.post('/ks/guide/admin/faq/save', admin, {
      id: faq.body.data.id,
      systemCoding: 'XYGL',
      gnCoding: 'XYGL_ZYZC',
      question: '执业注册需要准备哪些材料？',
      answer: '身份证、执业资格证书和盖章的执业注册申请表。',
    });
    expect(edited.body.data.question).toBe('执业注册需要准备哪些材料？');
    const admin1 = await api.get('/ks/guide/admin/help?systemCoding=XYGL', admin);
    expect(admin1.body!.data.faqs.map((f: any) => f.question)).toContain('执业注册需要准备哪些材料？');
    expect(admin1.body!.data.groups.map((x: any) => x.groupName)).toContain('执业注册');

    // removing the file makes it private again
    expect((await api.post('/ks/guide/admin/file/delete', admin, { id: added.body.data.id })).status).toBe(200);
    expect((await api.get(`/ks/common/common/file/preview-url?fileId=${fileId}`, user)).status).toBe(404);
    expect((await api.post('/ks/guide/admin/faq/delete', admin, { id: faq.body.data.id })).status).toBe(200);
    expect((await api.post('/ks/guide/admin/group/delete', admin, { id: g.body.data.id })).status).toBe(200);
    expect((await api.post('/ks/guide/admin/group/delete', admin, { id: g.body.data.id })).status).toBe(404);

    const logs = await t.database.db
      .select({ logbook: operationLogs.logbook })
      .from(operationLogs)
      .where(eq(operationLogs.glName, '帮助管理'));
    const texts = logs.map((l) => l.logbook).join('\n');
    for (const s of [
      '新建帮助分组：执业注册',
      '添加帮助文件：执业注册指南.pdf',
      '修改常见问题',
      '删除常见问题',
      '移除帮助文件',
      '删除帮助分组',
    ])
      expect(texts).toContain(s);
  });
});

describe('customer-service robot', () => {
  it('answers a paraphrase with the seeded question first, at most three matches', async () => {
    for (const [q, want] of [
      ['怎么申请信用变更', '信用变更怎么申请？'],
      ['密码忘记了怎么办', '忘记密码怎么办？'],
      ['CA锁识别不了', 'CA锁无法识别怎么处理？'],
      ['投标保证金怎么退', '投标保证金如何缴纳和退还？'],
    ] as const) {
      const r = await api.post('/ks/service/v1/robot/ask', user, { question: q, systemCoding: 'XYGL' });
      expect(r.status).toBe(200);
      expect(r.body.data.matches.length).toBeGreaterThan(0);
      expect(r.body.data.matches.length).toBeLessThanOrEqual(3);
      expect(r.body.data.matches[0].question, q).toBe(want);
    }
  });

  it('answers nothing for an unrelated question', async () => {
    const r = await api.post('/ks/service/v1/robot/ask', user, { question: 'zzqqxx' });
    expect(r.body.data.matches).toEqual([]);
  });

  it('the index is a trigram GIN index', async () => {
    const [faq] = await t.database.db.select().from(helpFaqs).limit(1);
    expect(faq!.searchText).toContain(faq!.question);
  });
});

describe('customer-service chat', () => {
  it('keeps a sanitised conversation between a user and the administrators, announced live to both sides', async () => {
    // the demo seed leaves user1 an open conversation waiting for an answer: this message joins it
    const before = await api.get('/ks/service/v1/chat/mine', user);
    const seeded = before.body!.data.messages.length;
    expect(before.body!.data.conversation).toMatchObject({ status: 'open', agentUnread: 1 });
    const sent = await api.post('/ks/service/v1/chat/send', user, {
      text: '你好<script>alert(1)</script><img src=x onerror=alert(2)>，信用记录有误',
    });
    expect(sent.status).toBe(200);
    expect(sent.body.data.body).not.toMatch(/<script|onerror|alert\(/);
    expect(sent.body.data.body).toContain('信用记录有误');
    const [stored] = await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, sent.body.data.id));
    expect(stored!.body).not.toMatch(/<script|<img/);

    const mine = await api.get('/ks/service/v1/chat/mine', user);
    const id = mine.body!.data.conversation.id;
    expect(mine.body!.data.messages).toHaveLength(seeded + 1);
    expect(mine.body!.data.conversation.id).toBe(before.body!.data.conversation.id);
    const events = await t.database.db
      .select()
      .from(liveEvents)
      .where(inArray(liveEvents.type, ['chat', 'chat-queue']));
    expect(
      events.some(
        (e) => e.type === 'chat-queue' && e.data.conversationId === id && e.audience.roles?.includes('admin'),
      ),
    ).toBe(true);

    // the console: open conversations, unread first
    const queue = await api.get('/ks/service/v1/agent/conversations', admin);
    const row = queue.body!.data.find((c: any) => c.id === id);
    expect(row).toMatchObject({ agentUnread: 2, userName: '张建国', status: 'open' });
    const thread = await api.get(`/ks/service/v1/agent/thread?conversationId=${id}`, admin);
    expect(thread.body!.data.messages.at(-1).body).toContain('信用记录有误');
    const reply = await api.post('/ks/service/v1/agent/reply', admin, {
      conversationId: id,
      text: '您好，请在信用变更申请中提交更正<b>材料</b>',
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data.body).not.toContain('<b>');
    const toUser = await t.database.db
      .select()
      .from(liveEvents)
      .where(and(eq(liveEvents.type, 'chat')));
    expect(toUser.some((e) => e.audience.users?.length === 1 && e.data.conversationId === id)).toBe(true);

    const again = await api.get('/ks/service/v1/chat/mine', user);
    expect(again.body!.data.messages.slice(seeded).map((m: any) => m.sender)).toEqual(['user', 'agent']);
    expect(again.body!.data.conversation.userUnread).toBe(0);

    // another user cannot read it
    expect((await api.get(`/ks/service/v1/agent/thread?conversationId=${id}`, other.token)).status).toBe(404);
    expect((await api.get('/ks/service/v1/chat/mine', other.token)).body!.data).toEqual({
      conversation: null,
      messages: [],
    });
    // its own user can
    expect((await api.get(`/ks/service/v1/agent/thread?conversationId=${id}`, user)).status).toBe(200);

    // close: history kept, a new message opens a new conversation
    expect((await api.post('/ks/service/v1/agent/close', admin, { conversationId: id })).status).toBe(200);
    expect((await api.post('/ks/service/v1/agent/reply', admin, { conversationId: id, text: '再见' })).status).toBe(
      409,
    );
    const closed = await api.get('/ks/service/v1/agent/conversations?status=closed', admin);
    expect(closed.body!.data.map((c: any) => c.id)).toContain(id);
    const next = await api.post('/ks/service/v1/chat/send', user, { text: '还有一个问题' });
    const now = await api.get('/ks/service/v1/chat/mine', user);
    expect(now.body!.data.conversation.id).not.toBe(id);
    expect(now.body!.data.messages.map((m: any) => m.id)).toEqual([next.body.data.id]);
  });

  it('refuses the console to non-administrators (403) and bad input (400)', async () => {
    expect((await api.get('/ks/service/v1/agent/conversations', user)).status).toBe(403);
    expect((await api.get('/ks/service/v1/agent/conversations', dev)).status).toBe(403);
    const anyId = '00000000-0000-4000-8000-000000000000';
    expect((await api.post('/ks/service/v1/agent/reply', user, { conversationId: anyId, text: 'x' })).status).toBe(403);
    expect((await api.post('/ks/service/v1/agent/close', user, { conversationId: anyId })).status).toBe(403);
    expect((await api.post('/ks/service/v1/chat/send', user, { text: '' })).status).toBe(400);
    expect((await api.post('/ks/service/v1/chat/send', user, { text: 'x'.repeat(501) })).status).toBe(400);
    expect((await api.post('/ks/service/v1/chat/send', user, { text: '<script>alert(1)</script>' })).status).toBe(400);
    expect((await api.post('/ks/service/v1/agent/reply', admin, { conversationId: 'nope', text: 'x' })).status).toBe(
      400,
    );
    expect((await api.get('/ks/service/v1/agent/thread?conversationId=nope', admin)).status).toBe(400);
    expect((await api.get(`/ks/service/v1/agent/thread?conversationId=${anyId}`, admin)).status).toBe(404);
  });
});
