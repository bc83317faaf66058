import {
  BENCHMARK_RULE_LABELS,
  EVAL_METHOD_LABELS,
  EVAL_PANEL_LABELS,
  EVAL_PANELS,
  EVAL_STATUS_LABELS,
  type EvalPanel,
  type EvalRoom,
  type EvalScore,
} from '@ks/contracts';
import ExcelJS from 'exceljs';
import { textPdf } from '../files/templates/pdf';

type Scores = (EvalScore & { memberId: string; panel: EvalPanel })[];

const at = (iso: string | null, tz: string) =>
  iso
    ? new Intl.DateTimeFormat('zh-CN', {
        timeZone: tz,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hour12: false,
      }).format(new Date(iso))
    : '—';

const yuan = (v: number) =>
  `¥${v.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true })}`;

function itemsOf(r: EvalRoom, p: EvalPanel) {
  const c = r.criteria!;
  if (p === 'ZS') return c.qualification.map((i) => ({ id: i.id, name: i.name, max: null as number | null }));
  return (p === 'JS' ? c.technical : c.business).map((i) => ({ id: i.id, name: i.name, max: i.max as number | null }));
}

/** The scores by member, bid and item. */
/** Scores by member → bid → item (nested maps: no key string built per score or per lookup). */
function indexOf(scores: Scores) {
  const m = new Map<string, Map<string, Map<string, Scores[number]>>>();
  for (const s of scores) {
    let byBid = m.get(s.memberId);
    if (!byBid) {
      byBid = new Map();
      m.set(s.memberId, byBid);
    }
    let byItem = byBid.get(s.bidId);
    if (!byItem) {
      byItem = new Map();
      byBid.set(s.bidId, byItem);
    }
    byItem.set(s.itemId, s);
  }
  return (memberId: string, bidId: string, itemId: string) => m.get(memberId)?.get(bidId)?.get(itemId);
}

const cell = (s: EvalScore | undefined) =>
  !s ? '—' : s.pass !== null ? (s.pass ? '合格' : '不合格') : String(s.score ?? '—');

/** The lines of the evaluation report, shared by the PDF and the xlsx's first sheet. */
function reportLines(r: EvalRoom, scores: Scores, tz: string): string[] {
  const c = r.criteria!;
  const scoreOf = indexOf(scores);
  const result = r.result!;
  const bidName = new Map(r.bids.map((b) => [b.bidId, b.enterpriseName]));
  const memberName = new Map(r.members.map((m) => [m.id, m.name]));
  const chair = r.members.find((m) => m.chair);
  const lines = [
    `项目名称：${r.section.projectName}`,
    `标段：${r.section.code} ${r.section.name}`,
    `评标办法：${EVAL_METHOD_LABELS[c.method]}    状态：${EVAL_STATUS_LABELS[r.status]}`,
    `评标委员会：${r.members.map((m) => `${m.name}（${m.specialty}${m.chair ? '，组长' : ''}${m.recused ? '，已回避' : ''}）`).join('、')}`,
    `组长：${chair?.name ?? '—'}    专家抽取：${r.extraction?.code ?? '—'}`,
    '',
    '## 评标结果',
  ];
  for (const row of result.rows) {
    const name = bidName.get(row.bidId) ?? row.bidId;
    if (!row.qualified) {
      lines.push(
        `资格评审不合格  ${name}：${row.failures.map((f) => `「${f.name}」${f.fails}/${f.of} 人判定不合格（${f.reasons.join('；') || '—'}）`).join('；')}`,
      );
      continue;
    }
    lines.push(
      result.method === 'comprehensive'
        ? `第 ${row.rank} 名  ${name}：技术 ${row.technical?.value ?? 0}，商务 ${row.business?.value ?? 0}，投标报价 ${yuan(row.price)}（偏差 ${row.deviationPct ?? 0}%），价格分 ${row.priceScore ?? 0}，总分 ${row.total ?? 0}`
        : `第 ${row.rank} 名  ${name}：评标价 ${yuan(row.price)}`,
    );
  }
  if (result.benchmark) {
    const b = result.benchmark;
    lines.push(
      '',
      '## 价格分计算过程',
      `基准价方法：${BENCHMARK_RULE_LABELS[b.rule]}`,
      `有效投标报价：${b.prices.map(yuan).join('、')}`,
      `去掉的报价：${b.dropped.length ? b.dropped.map(yuan).join('、') : '无'}`,
      `算术平均值 ${yuan(b.mean)} × K ${b.k} = 评标基准价 ${yuan(b.value)}`,
      `价格分 = ${c.price.max} − 高于基准价每 1% 扣 ${c.price.abovePerPct} 分 / 低于基准价每 1% 扣 ${c.price.belowPerPct} 分（最低 0 分）`,
    );
    for (const row of result.rows.filter((x) => x.qualified)) {
      lines.push(
        `    ${bidName.get(row.bidId) ?? ''}：(${yuan(row.price)} − ${yuan(b.value)}) ÷ ${yuan(b.value)} = ${row.deviationPct}% → ${row.priceScore} 分`,
      );
    }
  }
  for (const p of EVAL_PANELS) {
    const items = itemsOf(r, p);
    if (!items.length || (p !== 'ZS' && c.method === 'lowest')) continue;
    lines.push('', `## ${EVAL_PANEL_LABELS[p]}：各评委评分`);
    const members = r.members.filter((m) => m.panels.includes(p) && !m.recused);
    for (const m of members) {
      lines.push(`评委 ${m.name}`);
      for (const b of r.bids) {
        const parts = items.map((i) => {
          const s = scoreOf(m.id, b.bidId, i.id);
          return `${i.name} ${cell(s)}${s?.reason ? `（理由：${s.reason}）` : ''}`;
        });
        lines.push(`    ${b.enterpriseName}：${parts.join('；')}`);
      }
    }
    if (p !== 'ZS') {
      lines.push(`${EVAL_PANEL_LABELS[p]}汇总（5 人及以上时去掉一个最高分和一个最低分后取平均）：`);
      for (const row of result.rows) {
        const w = p === 'JS' ? row.technical : row.business;
        if (!w) continue;
        lines.push(
          `    ${bidName.get(row.bidId) ?? ''}：${Object.entries(w.totals)
            .map(([id, t]) => `${memberName.get(id) ?? ''} ${t}`)
            .join('，')}${w.dropped.length ? `；去掉 ${w.dropped.join('、')}` : ''} → ${w.value}`,
        );
      }
    }
  }
  if (r.reopens.length) {
    lines.push('', '## 退回重评');
    for (const x of r.reopens) {
      lines.push(
        `${at(x.at, tz)} 组长 ${x.byName} 退回 ${x.memberName} 的${EVAL_PANEL_LABELS[x.panel]}评分：${x.reason}`,
      );
    }
  }
  lines.push('', '## 评委签署');
  for (const m of r.members.filter((x) => !x.recused)) {
    lines.push(
      m.reportSignedAt
        ? `${m.name}：${at(m.reportSignedAt, tz)} 签署${m.dissent ? `，不同意见：${m.dissent}` : '，同意评标结果'}`
        : `${m.name}：未签署`,
    );
  }
  lines.push('', '## 开评标日志（评标部分）');
  for (const e of r.events) lines.push(`#${e.seq} ${at(e.at, tz)} ${e.actorName}：${e.text}`, `    哈希 ${e.hash}`);
  lines.push('', '本报告由平台根据评标记录与开评标日志生成；日志可在门户「开评标日志校验」页公开校验。');
  return lines;
}

export function evaluationReportPdf(r: EvalRoom, scores: Scores, tz: string): Buffer {
  return textPdf('评 标 报 告', reportLines(r, scores, tz));
}

/** The xlsx: the report's text, the ranking, and one sheet per panel with every member's score of every item. */
export async function evaluationReportXlsx(r: EvalRoom, scores: Scores, tz: string): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const scoreOf = indexOf(scores);
  const result = r.result!;
  const bidName = new Map(r.bids.map((b) => [b.bidId, b.enterpriseName]));
  const rank = wb.addWorksheet('评标结果', { views: [{ state: 'frozen', ySplit: 1 }] });
  rank.columns = [
    { header: '排名', key: 'rank', width: 6 },
    { header: '投标人', key: 'name', width: 36 },
    { header: '资格评审', key: 'qualified', width: 40 },
    { header: '技术分', key: 'technical', width: 10 },
    { header: '商务分', key: 'business', width: 10 },
    { header: '投标报价（元）', key: 'price', width: 16 },
    { header: '偏差率（%）', key: 'dev', width: 12 },
    { header: '价格分', key: 'priceScore', width: 10 },
    { header: '总分', key: 'total', width: 10 },
  ];
  rank.getRow(1).font = { bold: true };
  for (const row of result.rows) {
    rank.addRow({
      rank: row.rank ?? '',
      name: bidName.get(row.bidId) ?? row.bidId,
      qualified: row.qualified
        ? '合格'
        : `不合格：${row.failures.map((f) => `${f.name}（${f.reasons.join('；')}）`).join('；')}`,
      technical: row.technical?.value ?? '',
      business: row.business?.value ?? '',
      price: row.price,
      dev: row.deviationPct ?? '',
      priceScore: row.priceScore ?? '',
      total: row.total ?? '',
    });
  }
  for (const p of EVAL_PANELS) {
    const items = itemsOf(r, p);
    if (!items.length || (p !== 'ZS' && r.criteria?.method === 'lowest')) continue;
    const ws = wb.addWorksheet(EVAL_PANEL_LABELS[p]);
    ws.columns = [
      { header: '评委', key: 'member', width: 10 },
      { header: '投标人', key: 'bid', width: 36 },
      ...items.map((i) => ({ header: i.max !== null ? `${i.name}（${i.max}分）` : i.name, key: i.id, width: 16 })),
      { header: '理由', key: 'reasons', width: 40 },
    ];
    ws.getRow(1).font = { bold: true };
    for (const m of r.members.filter((x) => x.panels.includes(p) && !x.recused)) {
      for (const b of r.bids) {
        const values: Record<string, string | number> = { member: m.name, bid: b.enterpriseName };
        const reasons: string[] = [];
        for (const i of items) {
          const s = scoreOf(m.id, b.bidId, i.id);
          values[i.id] = s?.score ?? cell(s);
          if (s?.reason) reasons.push(`${i.name}：${s.reason}`);
        }
        values.reasons = reasons.join('；');
        ws.addRow(values);
      }
    }
  }
  const text = wb.addWorksheet('评标报告');
  text.columns = [{ header: '评标报告', key: 'line', width: 120 }];
  for (const line of reportLines(r, scores, tz)) text.addRow({ line });
  return Buffer.from(await wb.xlsx.writeBuffer());
}
