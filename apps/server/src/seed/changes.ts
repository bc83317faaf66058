import {
  RFC_AREAS,
  RFC_REVIEW_NODE,
  type RfcChangeRecord,
  rfcAuditRequestSchema,
  rfcSaveRequestSchema,
  scoreText,
  validityEnd,
} from '@ks/contracts';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { creditConductRecords, creditStandards } from '../db/schema';
import type { CreditCaller } from '../modules/credit/access';
import { registerChangeHooks } from '../modules/credit/changes';
import { auditChange, saveChange, submitChange } from '../modules/credit/changes/changes.service';
import { DEMO_DISPUTES } from './credit';
import type { Evidence } from './evidence';

/**
 * Change rounds of the demo (issue 13, screen 1), made through the change module's own services — so the rounds'
 * 信用变更申请 records, their reviews and to-dos, the operation log and the enterprise's messages are what a real
 * enterprise and reviewer would have left — on two penalties of the demo enterprise (DEMO_DISPUTES; the e2e test of
 * the change rounds works on a good-conduct record, these are bad-conduct ones):
 * - 工程质量不合格被责令返工, recorded at 8 points: round 1 asks for the standard's 5 with copies of the evidence and
 *   the administrator rejects it; round 2 sends the original scans and the 审核员 passes it (the record is corrected and
 *   the enterprise regraded: 88.5, AA);
 * - the 通报批评 of the 姚村 site: a 时间变更 (the rectification was accepted early) submitted and waiting, a to-do of the
 *   administrator and of the 审核员.
 */

export const DEMO_ROUND_TEXTS = {
  round1Reason:
    '返工部位为分包单位施工的附属排水管道，经复查已整改合格，属一般情形，依据信用评价标准应记 5 分，申请更正分值。',
  round1Rejection: '附件为复印件且未加盖公章，请补充原件扫描件',
  round2Reason: '已补充加盖公章的整改复查验收记录原件扫描件，申请按一般情形将分值更正为 5 分。',
  round2Opinion: '材料齐全，经核实属一般情形，同意更正分值',
  waitingReason:
    '临边防护问题已于通报后 15 日内整改完毕并经监督站复查合格，依据整改复查意见书申请将公示截止日期提前至整改后六个月。',
} as const;

export interface DemoCallers {
  user: CreditCaller;
  admin: CreditCaller;
  auditor: CreditCaller;
}

async function disputed(tx: Db, enterpriseId: string, title: string) {
  const [r] = await tx
    .select({
      id: creditConductRecords.id,
      startTime: creditConductRecords.startTime,
      endTime: creditConductRecords.endTime,
    })
    .from(creditConductRecords)
    .innerJoin(creditStandards, eq(creditStandards.id, creditConductRecords.standardId))
    .where(and(eq(creditConductRecords.enterpriseId, enterpriseId), eq(creditConductRecords.title, title)));
  if (!r) throw new Error(`demo credit record missing: ${title}`);
  return r;
}

/** The round's files: the explanation (附件), the form (变更申请表) and the proof (证明材料). */
async function roundFiles(
  evidence: Evidence,
  c: CreditCaller,
  docs: {
    explanation: string;
    form: [string, string][];
    proof: { name: string; title: string; rows: [string, string][] };
  },
) {
  const up = (name: string, title: string, rows: [string, string][], note: string) =>
    evidence.upload(c, {
      name,
      gnCoding: RFC_REVIEW_NODE,
      form: { title, note, rows, footer: ['申请单位（盖章）：示例建设工程有限公司', '日期：'] },
    });
  const explanation = await up(
    '信用变更说明.pdf',
    '信用信息变更说明',
    [['说明', docs.explanation]],
    '致：信用管理部门',
  );
  const form = await up('信用信息变更申请表.pdf', '信用信息变更申请表', docs.form, '请如实填写，加盖单位公章。');
  const proof = await up(docs.proof.name, docs.proof.title, docs.proof.rows, '证明材料');
  return {
    attachment: [explanation.fileId],
    fileList: [
      { fileId: form.fileId, code: 'bgsqb' },
      { fileId: proof.fileId, code: 'zmcl' },
    ],
  };
}

export async function seedChanges(
  tx: Db,
  who: DemoCallers,
  evidence: Evidence,
  opts: { enterpriseId: string; now?: () => Date },
): Promise<{ rejected: RfcChangeRecord; passed: RfcChangeRecord; waiting: RfcChangeRecord }> {
  const now = opts.now ?? (() => new Date());
  // a decision settles its round through the module's hook (an app built later registers it with its own clock)
  registerChangeHooks();
  const quality = await disputed(tx, opts.enterpriseId, DEMO_DISPUTES.quality.title);
  const corrected = scoreText(DEMO_DISPUTES.quality.corrected);
  const formRows = (reason: string): [string, string][] => [
    ['申请企业', '示例建设工程有限公司'],
    ['信用记录', DEMO_DISPUTES.quality.title.slice(0, 24)],
    ['变更事项', `分值 ${scoreText(DEMO_DISPUTES.quality.score)} 分更正为 ${corrected} 分`],
    ['变更原因', reason.slice(0, 24)],
    ['联系人', '张建国 13800138000'],
  ];
  const save = (input: Record<string, unknown>) =>
    saveChange(
      tx,
      who.user,
      rfcSaveRequestSchema.parse({ gnCoding: RFC_AREAS.creditRecord, systemCoding: 'XYGL', ...input }),
      now(),
    );

  // round 1: copies only — rejected by the administrator
  const r1Files = await roundFiles(evidence, who.user, {
    explanation: DEMO_ROUND_TEXTS.round1Reason.slice(0, 30),
    form: formRows(DEMO_ROUND_TEXTS.round1Reason),
    proof: {
      name: '整改复查验收记录（复印件）.pdf',
      title: '整改复查验收记录（复印件）',
      rows: [
        ['工程名称', '龙城大街东延道路工程（二标段）'],
        ['整改部位', 'K2+300~K2+480 排水管道'],
        ['复查结论', '闭水试验合格'],
      ],
    },
  });
  let r1 = await save({
    businessId: quality.id,
    changeTypeCode: 'info/record',
    logbook: DEMO_ROUND_TEXTS.round1Reason,
    dataList: [{ changeField: 'score', newValue: corrected }],
    ...r1Files,
  });
  r1 = await submitChange(tx, who.user, { id: r1.id!, version: r1.version }, now());
  const rejected = await auditChange(
    tx,
    who.admin,
    rfcAuditRequestSchema.parse({
      id: r1.id,
      version: r1.version,
      pass: false,
      auditRecord: DEMO_ROUND_TEXTS.round1Rejection,
    }),
  );

  // round 2: the original scans — passed by the 审核员, the record corrected and the enterprise regraded
  const r2Files = await roundFiles(evidence, who.user, {
    explanation: DEMO_ROUND_TEXTS.round2Reason.slice(0, 30),
    form: formRows(DEMO_ROUND_TEXTS.round2Reason),
    proof: {
      name: '整改复查验收记录（原件扫描件）.pdf',
      title: '整改复查验收记录',
      rows: [
        ['工程名称', '龙城大街东延道路工程（二标段）'],
        ['整改部位', 'K2+300~K2+480 排水管道'],
        ['复查结论', '闭水试验合格，同意恢复施工'],
        ['复查单位', '太原市建设工程质量监督站（盖章）'],
      ],
    },
  });
  let r2 = await save({
    businessId: quality.id,
    changeTypeCode: 'info/record',
    logbook: DEMO_ROUND_TEXTS.round2Reason,
    dataList: [{ changeField: 'score', newValue: corrected }],
    ...r2Files,
  });
  r2 = await submitChange(tx, who.user, { id: r2.id!, version: r2.version }, now());
  const passed = await auditChange(
    tx,
    who.auditor,
    rfcAuditRequestSchema.parse({
      id: r2.id,
      version: r2.version,
      pass: true,
      auditRecord: DEMO_ROUND_TEXTS.round2Opinion,
    }),
  );

  // the 姚村 通报批评: a 时间变更 waiting for review
  const safety = await disputed(tx, opts.enterpriseId, DEMO_DISPUTES.safety.title);
  const earlier = validityEnd(safety.startTime, 6);
  const wFiles = await roundFiles(evidence, who.user, {
    explanation: DEMO_ROUND_TEXTS.waitingReason.slice(0, 30),
    form: [
      ['申请企业', '示例建设工程有限公司'],
      ['信用记录', DEMO_DISPUTES.safety.title.slice(0, 24)],
      ['变更事项', `结束时间 ${safety.endTime} 调整为 ${earlier}`],
      ['联系人', '张建国 13800138000'],
    ],
    proof: {
      name: '整改复查意见书.pdf',
      title: '安全隐患整改复查意见书',
      rows: [
        ['工程名称', '晋源区姚村安置房项目'],
        ['整改事项', '临边防护栏杆、安全网'],
        ['复查意见', '已整改到位，同意销项'],
        ['复查单位', '太原市建筑工程质量安全监督站（盖章）'],
      ],
    },
  });
  let w = await save({
    businessId: safety.id,
    changeTypeCode: 'time/validity',
    logbook: DEMO_ROUND_TEXTS.waitingReason,
    dataList: [{ changeField: 'end_time', newValue: earlier }],
    ...wFiles,
  });
  w = await submitChange(tx, who.user, { id: w.id!, version: w.version }, now());
  return { rejected, passed, waiting: w };
}
