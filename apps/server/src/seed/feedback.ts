import { EVALUATE_TYPES, FEEDBACK_QUESTIONNAIRES } from '@ks/contracts';
import { asc, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { addFeedback } from '../modules/feedback/feedback.service';

/** What users of a Shanxi trading centre write in the feedback drawer (about half of the submissions carry a text). */
const TEXTS = [
  '投标文件上传速度比去年快多了，大文件分片上传很稳定，希望开标当天也能保持。',
  '信用评价的扣分依据能否在页面上直接显示对应条款？现在需要到帮助文档里查。',
  '从业人员登记审核周期有点长，希望审核通过后能短信提醒。',
  '场地预约页面在手机上显示不全，建议适配移动端。',
  '客服回复很及时，电子保函开具的问题当天就解决了，点赞！',
  '希望增加招标公告按地市（太原、大同、晋中）订阅的功能。',
  '系统整体好用，就是菜单层级有点深，常用功能能否放到首页。',
  '企业信息变更需要重复上传营业执照，建议能引用已上传的附件。',
  '专家抽取结果导出的表格能否增加联系方式列（按权限显示）。',
  '帮助视频很实用，建议补充 CA 锁登录常见问题的说明。',
  '消息中心的待办数量有时和列表对不上，刷新后才正确。',
  '平台运行稳定，服务态度好，希望继续保持。',
];

/** A small deterministic generator, so that every seeded database holds the same feedback. */
function lcg(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

/**
 * Demo feedback through the module's own service: 24 submissions of the enterprise users over the last 60 days, most
 * ratings good (4–5), some middling, a few poor, every question answered or a few skipped.
 */
export async function seedFeedback(tx: Db, now: Date = new Date()): Promise<void> {
  const people = await tx
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.loginRoleType, ['U', 'D']))
    .orderBy(asc(users.account));
  if (!people.length) return;
  const rnd = lcg(2026);
  const score = () => {
    const r = rnd();
    return r < 0.05 ? 1 : r < 0.12 ? 2 : r < 0.3 ? 3 : r < 0.65 ? 4 : 5;
  };
  for (let i = 0; i < 24; i++) {
    const who = people[i % people.length]!;
    const list = EVALUATE_TYPES.flatMap((t) =>
      FEEDBACK_QUESTIONNAIRES[t].questions
        .filter(() => rnd() > 0.1)
        .map((question) => ({ evaluateType: t, question, score: score() })),
    );
    if (!list.length) continue;
    const at = new Date(now.getTime() - (60 - i * 2.5) * 86_400_000 - Math.floor(rnd() * 8) * 3_600_000);
    const text = i % 2 === 0 ? TEXTS[(i / 2) % TEXTS.length] : null;
    await addFeedback(tx, who.id, { list, text }, at);
  }
}
