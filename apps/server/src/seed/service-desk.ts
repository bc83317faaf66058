import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { AuthContext } from '../modules/auth/auth.service';
import { actorOf } from '../modules/auth/auth.service';
import * as chat from '../modules/help/chat.service';
import { publishMessage, readMessages } from '../modules/messages/messages.service';

/**
 * The demo's service desk, made through the modules' own services so that 消息发布 and 客服工作台 open on something
 * real: one administrator message to the demo enterprise's user and the reviewer (the reviewer has read it, so its
 * receipts show one of two), and one open customer-service conversation of user1 that waits for an answer.
 */
export async function seedServiceDesk(tx: Db, ids: { admin: string; user: string; auditor: string }) {
  const rows = await tx
    .select()
    .from(users)
    .where(inArray(users.id, [ids.admin, ids.user, ids.auditor]));
  const ctx = (id: string): AuthContext => {
    const user = rows.find((r) => r.id === id)!;
    return { user, sessionId: '00000000-0000-0000-0000-000000000000', actor: actorOf(user) };
  };
  const admin = ctx(ids.admin);
  const user = ctx(ids.user);
  const auditor = ctx(ids.auditor);
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

  await publishMessage(
    tx,
    admin.actor,
    {
      title: '关于开展 2026 年度市场主体信用信息核查的通知',
      body:
        '<p>各市场主体：</p><p>根据年度工作安排，交易中心将于 12 月开展信用信息核查。请于 <strong>2026 年 12 月 20 日前</strong>' +
        '在“信用管理系统 → 信用变更申请”中核对本单位信息，如有错误请及时提交变更申请并上传证明材料。</p>' +
        '<p>咨询电话：0351-12345678</p>',
      users: [ids.user, ids.auditor],
      roles: [],
    },
    at(180),
  );
  await readMessages(tx, { id: ids.auditor, loginRoleType: auditor.user.loginRoleType }, { all: true }, at(150));

  await chat.send(tx, user, '您好，信用变更申请提交以后一般多久能审核完成？', at(42));
  const { conversation } = await chat.mine(tx, user);
  await chat.reply(
    tx,
    admin,
    {
      conversationId: conversation!.id,
      text: '您好，交易中心一般在 3 个工作日内完成审核，审核结果会通过消息中心通知您。',
    },
    at(38),
  );
  await chat.send(tx, user, '好的。变更申请的证明材料需要加盖公章吗？扫描件可以吗？', at(12));
}
