import { OPENING_BID_STATUS_LABELS, OPENING_STATUS_LABELS, type OpeningHall } from '@ks/contracts';
import { textPdf } from '../files/templates/pdf';

const at = (iso: string | null, tz: string) =>
  iso
    ? new Intl.DateTimeFormat('zh-CN', {
        timeZone: tz,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hour12: false,
      }).format(new Date(iso))
    : '—';

/**
 * The opening record (开标记录) of a closed or failed opening as a PDF: the section, the host, the bids with their
 * decryption, the drawn order and seed, each reading, confirmations and objections with answers, and the log's entries
 * with their hashes (so the record can be checked against the public verification).
 */
export function openingRecordPdf(h: OpeningHall, hostName: string, tz: string, money: (v: number) => string): Buffer {
  const lines: string[] = [
    `项目名称：${h.section.projectName}`,
    `标段：${h.section.code} ${h.section.name}`,
    `开标时间（投标截止时间）：${at(h.section.bidDeadline, tz)}`,
    `开标方式：不见面开标（远程解密）    主持人：${hostName}`,
    `开标状态：${OPENING_STATUS_LABELS[h.status]}    开始：${at(h.startedAt, tz)}    结束：${at(h.closedAt, tz)}`,
  ];
  if (h.status === 'failed') {
    lines.push('', `## 流标`, h.failureReason ?? '');
  } else {
    lines.push(
      `解密时限：${h.decryptMinutes ?? '—'} 分钟，截至 ${at(h.decryptDeadline, tz)}`,
      `唱标顺序随机种子：${h.seed ?? '—'}`,
      `种子的 SHA-256（开标时承诺）：${h.seedCommitment ?? '—'}`,
      '唱标顺序为各投标文件按 SHA-256(种子‖投标文件编号) 升序排列，任何人可据此复核。',
      '',
      '## 投标文件与解密情况',
    );
    for (const b of h.bids) {
      lines.push(
        `${b.enterpriseName}：${b.signedIn ? '已签到' : '未签到'}，${OPENING_BID_STATUS_LABELS[b.status]}${b.decryptedAt ? `（${at(b.decryptedAt, tz)}）` : ''}${b.reason ? `，${b.reason}` : ''}`,
      );
    }
    lines.push('', '## 唱标');
    const read = h.bids.filter((b) => b.reading).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    if (!read.length) lines.push('无');
    for (const b of read) {
      const r = b.reading!;
      lines.push(
        `第 ${b.order} 家  ${b.enterpriseName}`,
        `    投标报价 ${money(r.price)}；工期 ${r.durationDays} 日历天；质量标准 ${r.quality}；项目经理 ${r.manager}；唱标时间 ${at(r.readAt, tz)}`,
      );
    }
    lines.push('', '## 开标结果确认与异议');
    for (const b of h.bids) {
      if (!b.responses.length) lines.push(`${b.enterpriseName}：未确认`);
      for (const r of b.responses) {
        if (r.kind === 'confirm') lines.push(`${b.enterpriseName}：${r.userName} 于 ${at(r.at, tz)} 确认开标结果`);
        else {
          lines.push(`${b.enterpriseName}：${r.userName} 于 ${at(r.at, tz)} 提出异议：${r.text ?? ''}`);
          lines.push(`    答复（${r.answeredBy ?? '—'}，${at(r.answeredAt, tz)}）：${r.answer ?? '未答复'}`);
        }
      }
    }
  }
  lines.push('', '## 开评标日志（本标段）');
  for (const e of h.events) {
    lines.push(`#${e.seq} ${at(e.at, tz)} ${e.actorName}：${e.text}`, `    哈希 ${e.hash}`);
  }
  lines.push('', '本记录由平台根据开评标日志生成；日志可在门户「开评标日志校验」页公开校验。');
  return textPdf('开 标 记 录', lines);
}
