import { EVAL_METHOD_LABELS, EVAL_PANEL_LABELS, type EvalMethod, type EvalPanel } from '@ks/contracts';

/**
 * How the evaluation room reads an entry of the tamper-evident log (the payload is what was hashed; this is only its
 * Chinese wording).
 */
type Payload = Record<string, unknown>;

const s = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const panel = (v: unknown) => EVAL_PANEL_LABELS[v as EvalPanel] ?? s(v);

export function evalEventText(kind: string, p: Payload): string {
  switch (kind) {
    case 'evaluation.begun': {
      const n = Array.isArray(p.members) ? p.members.length : 0;
      return `开始评标：评标委员会 ${n} 人（专家抽取 ${s(p.extractionCode)}），评标办法：${EVAL_METHOD_LABELS[p.method as EvalMethod] ?? s(p.method)}`;
    }
    case 'evaluation.method':
      return '评标办法已设置（评审因素、分值与价格分公式见评标办法）';
    case 'evaluation.declared':
      return p.conflict ? `${s(p.name)} 申请回避：${s(p.text)}` : `${s(p.name)} 签署回避声明：无应当回避的情形`;
    case 'evaluation.signin':
      return `${s(p.name)} 签到${panel(p.panel)}${p.late ? '（晚于评标开始时间）' : ''}`;
    case 'evaluation.vote':
      return `${s(p.name)} 推选 ${s(p.forName)} 为评标委员会组长`;
    case 'evaluation.chair':
      return `${s(p.name)} 以 ${s(p.votes)}/${s(p.of)} 票当选评标委员会组长`;
    case 'evaluation.submitted': {
      const n = Array.isArray(p.scores) ? p.scores.length : 0;
      return `${s(p.name)} 提交${panel(p.panel)}评审结果（${n} 项，评分内容记入本条日志）`;
    }
    case 'evaluation.principal':
      return p.previous
        ? `更换评标委员会负责人（组长）：${s(p.previous)} → ${s(p.name)}，理由：${s(p.reason)}`
        : `招标人确定 ${s(p.name)} 为评标委员会负责人（组长），理由：${s(p.reason)}`;
    case 'evaluation.reopened':
      return `组长 ${s(p.chair)} 退回 ${s(p.name)} 的${panel(p.panel)}评分重评：${s(p.reason)}`;
    case 'evaluation.clarify_asked':
      return `组长 ${s(p.chair)} 要求${s(p.enterpriseName)}澄清（答复截止 ${s(p.deadlineText)}）：${s(p.question)}`;
    case 'evaluation.clarify_answered': {
      const n = Array.isArray(p.files) ? p.files.length : 0;
      return `${s(p.enterpriseName)}答复澄清：${s(p.answer)}${n ? `（附件 ${n} 个）` : ''}`;
    }
    case 'evaluation.clarify_revoked':
      return `组长 ${s(p.chair)} 撤回对${s(p.enterpriseName)}的澄清要求：${s(p.reason)}`;
    case 'evaluation.rendered': {
      const rows = Array.isArray(p.ranking) ? (p.ranking as Payload[]) : [];
      const ranked = rows
        .filter((r) => r.rank !== null)
        .map((r) => `${s(r.rank)}. ${s(r.enterpriseName)}${r.total !== null ? `（${s(r.total)} 分）` : ''}`);
      const out = rows.filter((r) => !r.qualified).map((r) => s(r.enterpriseName));
      return `汇总评标结果：${ranked.join('；') || '无合格投标人'}${out.length ? `；资格评审不合格：${out.join('、')}` : ''}`;
    }
    case 'evaluation.report_signed':
      return p.agree ? `${s(p.name)} 签署评标报告` : `${s(p.name)} 签署评标报告，不同意见：${s(p.dissent)}`;
    case 'evaluation.done': {
      const c = Array.isArray(p.candidates) ? (p.candidates as Payload[]) : [];
      return `评标结束，推荐中标候选人：${c.map((x) => `第${s(x.rank)}名 ${s(x.enterpriseName)}`).join('；') || '无'}`;
    }
    case 'evaluation.published': {
      const c = Array.isArray(p.candidates) ? (p.candidates as Payload[]) : [];
      return `公示中标候选人 ${s(p.days)} 日：${c.map((x) => `第${s(x.rank)}名 ${s(x.enterpriseName)}`).join('；')}${p.late ? '（晚于公示期限）' : ''}`;
    }
    case 'evaluation.objection':
      return `${s(p.enterpriseName)}对中标候选人提出异议：${s(p.text)}`;
    case 'evaluation.objection_answered':
      return `答复${s(p.enterpriseName)}的异议：${s(p.answer)}`;
    case 'evaluation.awarded':
      return `确定中标人：${s(p.enterpriseName)}，发布中标结果公告`;
    default:
      return kind;
  }
}
