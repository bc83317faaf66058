import { DEFAULT_TIME_ZONE } from '@ks/contracts';
import { and, gt, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { tenderSections } from '../db/schema';
import type { EngineCaller } from '../modules/engine/record-access';
import {
  auditClarification,
  saveClarification,
  sendClarification,
  submitClarification,
} from '../modules/tender/clarify.service';
import { sectionById } from '../modules/tender/files.repo';
import { openDownload, saveDocument } from '../modules/tender/files.service';
import { saleStartsAt } from '../modules/tender/files-access';
import { projects } from '../modules/tender/project';
import type { Evidence } from './evidence';

/**
 * The 招标文件 tab of the demo (issue 16), through the module's own services: every section whose notice is published
 * has its 招标文件 (a one-page PDF), put up by the project's side (the administrator who entered the projects at the
 * centre's window) an hour before its sale started; user1 (示例建设工程有限公司, registered for 太原 BD-01) has
 * downloaded it once; and one clarification on that section was passed by the centre and sent to its bidders.
 */
const HOUR = 3_600_000;

export async function seedTenderFiles(
  tx: Db,
  who: { admin: EngineCaller; user: EngineCaller },
  evidence: Evidence,
  now = new Date(),
  tz = DEFAULT_TIME_ZONE,
) {
  // the sections still open for bids (the opening and evaluation demos, opened already, keep only their notice)
  const published = await tx
    .select()
    .from(tenderSections)
    .where(and(isNotNull(tenderSections.noticePublishedAt), gt(tenderSections.bidDeadline, now)));
  const deps = (at: Date) => ({ db: tx, storage: evidence.deps.storage, now: () => at, tz });
  let school: { sectionId: string; documentId: string } | null = null;
  for (const s of published) {
    const p = await projects.get(tx, s.projectId);
    const projectName = p?.values.xmmc ?? '';
    const fileName = `${p?.values.xmbh ?? ''}-${s.code}-招标文件.pdf`;
    const file = await evidence.upload(who.admin, {
      name: fileName,
      form: {
        title: '招 标 文 件',
        note: `${projectName} ${s.code} ${s.name}（演示数据）`,
        rows: [
          ['招标人', p?.values.zbr ?? ''],
          ['招标代理机构', p?.values.dljg ?? '—'],
          ['标段', `${s.code} ${s.name}`],
          ['招标文件发售期', `${s.docSaleStart} 至 ${s.docSaleEnd}`],
          ['投标保证金（元）', Number(s.deposit).toLocaleString('zh-CN', { minimumFractionDigits: 2 })],
          [
            '目录',
            '第一章 招标公告；第二章 投标人须知；第三章 评标办法；第四章 合同条款；第五章 工程量清单；第六章 图纸',
          ],
        ],
        footer: [`招标人：${p?.values.zbr ?? ''}（盖章）`],
      },
    });
    // put up before the sale started (from then on the documents change only by clarification)
    const before = new Date(Math.min(now.getTime(), saleStartsAt(s, tz).getTime() - HOUR));
    const doc = await saveDocument(deps(before), who.admin, {
      sectionId: s.id,
      fileId: file.fileId,
      name: `${s.name}招标文件（正文）`,
      kind: '招标文件',
    });
    if (p?.values.xmbh === 'SXGC-2026-1101' && s.code === 'BD-01') school = { sectionId: s.id, documentId: doc.id };
  }
  if (!school) return;
  // user1 downloaded the school's 施工标段 documents once its sale had started (the download streams and is recorded)
  if (now.getTime() >= saleStartsAt((await sectionById(tx, school.sectionId))!, tz).getTime()) {
    const opened = await openDownload(deps(now), who.user, school.documentId, '127.0.0.1');
    opened.body.destroy();
  }
  // … and the agency's clarification of the bill of quantities, passed by the centre, was sent to the bidders
  const c = await saveClarification(deps(now), who.admin, {
    sectionId: school.sectionId,
    title: '关于第五章工程量清单的澄清（第一号）',
    content:
      '第五章工程量清单“010502001 矩形柱”项目特征中混凝土强度等级由 C30 更正为 C35，工程量不变；其余内容不变。请各投标人据此编制投标报价。',
    affectsBids: true,
  });
  await submitClarification(deps(now), who.admin, { id: c.id });
  await auditClarification(deps(now), who.admin, { id: c.id, pass: true, opinion: '内容与原招标文件一致，同意发出' });
  await sendClarification(deps(now), who.admin, { id: c.id });
}
