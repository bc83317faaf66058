import type { Metrics, MonitoringReport } from '@ks/contracts';
import { textPdf } from '../files/templates/pdf';

/**
 * 监测报告 (issue 19): the findings written from the numbers, and the report as a PDF (the platform's plain text PDF
 * writer, STSong-Light).
 */

const pct = (r: number) => `${(r * 100).toFixed(2)}%`;
const wan = (yuan: number) =>
  (yuan / 10_000).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const points = (a: number, b: number) => Math.abs((a - b) * 100).toFixed(2);

/** 较上期上升 x 个百分点 / 下降 / 持平, for rates; '' when either side has none. */
function rateChange(cur: number | null, prev: number | null): string {
  if (cur === null || prev === null) return '';
  const d = Math.round((cur - prev) * 10_000);
  if (d === 0) return '，与上期持平';
  return `，较上期${d > 0 ? '上升' : '下降'} ${points(cur, prev)} 个百分点`;
}

/** 较上期增加 n 宗（x%） / 减少 / 持平, for counts. */
function countChange(cur: number, prev: number, unit: string): string {
  if (cur === prev) return '，与上期持平';
  if (prev === 0) return `，上期为 0 ${unit}`;
  const d = cur - prev;
  return `，较上期${d > 0 ? '增加' : '减少'} ${Math.abs(d)} ${unit}（${d > 0 ? '+' : '-'}${pct(Math.abs(d) / prev)}）`;
}

/** A discount rate above this calls for attention to bids below cost (低于成本价竞标). */
export const DISCOUNT_ALERT = 0.15;
/** A re-tender rate above this calls for attention to how tenders are set. */
export const RETENDER_ALERT = 0.2;
/** Fewer bidders per opened section than this: weak competition. */
export const BIDDERS_ALERT = 4;

/** The report's findings, in order: volume, awards and discount, re-tendering, competition, regions, alerts. */
export function findingsOf(
  cur: Metrics,
  prev: Metrics,
  byRegion: (Metrics & { name: string })[],
  scope: string,
): string[] {
  const out: string[] = [];
  if (cur.published === 0 && cur.concluded === 0 && cur.opened === 0) {
    out.push(`本期${scope}无已发布的交易数据。`);
    return out;
  }
  out.push(
    `本期${scope}发布交易（标段）${cur.published} 宗，控制价合计 ${wan(cur.controlAmount)} 万元${countChange(cur.published, prev.published, '宗')}。`,
  );
  out.push(
    cur.awarded
      ? `本期成交 ${cur.awarded} 宗，成交金额合计 ${wan(cur.awardAmount)} 万元${countChange(cur.awarded, prev.awarded, '宗')}。`
      : '本期无成交的交易。',
  );
  if (cur.discountRate !== null) {
    out.push(
      `本期平均下浮率 ${pct(cur.discountRate)}（${cur.discountSamples} 宗有最高投标限价的成交）${rateChange(cur.discountRate, prev.discountRate)}。`,
    );
  }
  if (cur.retenderRate !== null) {
    out.push(
      `本期重新招标率 ${pct(cur.retenderRate)}（流标或终止 ${cur.failed} 宗，办结 ${cur.concluded} 宗）${rateChange(cur.retenderRate, prev.retenderRate)}。`,
    );
  } else {
    out.push('本期无办结（成交、流标或终止）的交易，重新招标率无法计算。');
  }
  if (cur.bidders !== null) {
    const was =
      prev.bidders === null
        ? ''
        : cur.bidders === prev.bidders
          ? '，与上期持平'
          : `，较上期${cur.bidders > prev.bidders ? '增加' : '减少'} ${Math.abs(cur.bidders - prev.bidders).toFixed(2)} 家`;
    out.push(`本平台开标 ${cur.opened} 个标段，平均每标段有效投标人 ${cur.bidders.toFixed(2)} 家${was}。`);
  }
  const top = byRegion[0];
  if (top && top.published > 0 && cur.published > 0) {
    out.push(`发布量最多的地区为${top.name}（${top.published} 宗，占 ${pct(top.published / cur.published)}）。`);
  }
  const worst = byRegion
    .filter((r) => r.failed > 0 && r.retenderRate !== null)
    .sort((a, b) => (b.retenderRate ?? 0) - (a.retenderRate ?? 0) || b.failed - a.failed)[0];
  if (worst) {
    out.push(
      `重新招标率最高的地区为${worst.name}（${pct(worst.retenderRate!)}，流标或终止 ${worst.failed} 宗），建议关注其招标文件的资格条件与限价设置。`,
    );
  }
  if (cur.discountRate !== null && cur.discountRate > DISCOUNT_ALERT) {
    out.push(`平均下浮率高于 ${pct(DISCOUNT_ALERT)}，应关注低于成本价竞标与履约风险。`);
  }
  if (cur.retenderRate !== null && cur.retenderRate > RETENDER_ALERT) {
    out.push(`重新招标率高于 ${pct(RETENDER_ALERT)}，建议核查流标原因，关注资格条件是否设置过高。`);
  }
  // a judgement on competition needs a few openings, not one
  if (cur.bidders !== null && cur.opened >= 3 && cur.bidders < BIDDERS_ALERT) {
    out.push(`平均每标段投标人少于 ${BIDDERS_ALERT} 家，市场竞争不充分，应关注围标串标风险。`);
  }
  return out;
}

const num = (v: number | null, f: (v: number) => string) => (v === null ? '—' : f(v));

function metricLines(m: Metrics): string {
  return [
    `发布 ${m.published} 宗`,
    `控制价 ${wan(m.controlAmount)} 万元`,
    `成交 ${m.awarded} 宗 ${wan(m.awardAmount)} 万元`,
    `平均下浮率 ${num(m.discountRate, pct)}`,
    `流标或终止 ${m.failed} 宗`,
    `重新招标率 ${num(m.retenderRate, pct)}`,
    `平均投标人 ${num(m.bidders, (v) => `${v.toFixed(2)} 家`)}`,
  ].join('，');
}

/** The report as a PDF: the same sections as the page. */
export function reportPdf(r: MonitoringReport): Buffer {
  const c = r.current;
  const p = r.previous;
  const row = (name: string, cur: string, prev: string) => `${name}：本期 ${cur}；上期 ${prev}`;
  const lines: string[] = [
    `报告期间：${r.label}（${r.period}），${r.start} 至 ${r.end}`,
    `比较期间：${r.previousLabel}（${r.previousPeriod}）`,
    `统计范围：${r.region ?? '全省'}已发布的交易公告及本平台开标记录`,
    `生成时间：${r.generatedAt}`,
    '',
    '## 一、主要指标',
    row('发布交易（标段）', `${c.published} 宗`, `${p.published} 宗`),
    row('控制价合计', `${wan(c.controlAmount)} 万元`, `${wan(p.controlAmount)} 万元`),
    row('成交', `${c.awarded} 宗，${wan(c.awardAmount)} 万元`, `${p.awarded} 宗，${wan(p.awardAmount)} 万元`),
    row('平均下浮率', num(c.discountRate, pct), num(p.discountRate, pct)),
    row('流标或终止', `${c.failed} 宗`, `${p.failed} 宗`),
    row('重新招标率', num(c.retenderRate, pct), num(p.retenderRate, pct)),
    row(
      '平台开标标段 / 平均投标人',
      `${c.opened} 个 / ${num(c.bidders, (v) => `${v.toFixed(2)} 家`)}`,
      `${p.opened} 个 / ${num(p.bidders, (v) => `${v.toFixed(2)} 家`)}`,
    ),
    '',
    '## 二、主要发现',
    ...r.findings.map((f, i) => `${i + 1}. ${f}`),
    '',
    '## 三、分地区情况',
    ...(r.byRegion.length ? r.byRegion.map((x) => `${x.name}：${metricLines(x)}`) : ['无']),
    '',
    '## 四、分交易类型情况',
    ...(r.byTradeType.length ? r.byTradeType.map((x) => `${x.name}：${metricLines(x)}`) : ['无']),
    '',
    '## 五、月度走势',
    ...r.trend.map((x) => `${x.period}：${metricLines(x)}`),
    '',
    '## 口径说明',
    '交易：同一项目编号与标段的已发布公告，以其首个招标公告（资格预审公告）的发布日期计入发布期间；控制价取该公告金额（工程建设、政府采购为最高投标限价）。',
    '成交：以中标结果公告的发布日期计入；平均下浮率 = 各成交交易（工程建设、政府采购）1 − 中标价 ÷ 控制价 的平均值。',
    '重新招标率 = 流标或终止的交易 ÷ 办结（成交、流标或终止）的交易；流标含本平台开标时有效投标人不足三家的标段。',
    '平均投标人数 = 本平台开标大厅开标结束的标段中解密成功的投标文件数的平均值。',
    '未发布、已撤回的公告及未公示的评标结果不计入。',
  ];
  return textPdf(`公共资源交易市场监测报告（${r.label}）`, lines);
}
