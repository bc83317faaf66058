import { idNumberCheckChar } from '@ks/contracts';
import type { Db } from '../db/client';
import type { EngineCaller } from '../modules/engine/record-access';
import { recordRow } from '../modules/engine/records.repo';
import { saveRecord } from '../modules/engine/records.service';
import { auditRecord, submitRecord } from '../modules/engine/review.service';
import { applyAttachmentOps } from '../modules/files/files.service';
import type { Evidence } from './evidence';

/**
 * People of the demo enterprise in 从业人员登记 (XYGL_CYRY) and 执业注册申请 (XYGL_ZYZC), made through the engine's
 * own services as user1 would (save, the required attachments, submit) and decided by the demo reviewers (初审: the
 * 审核员, 复审: the administrator): so the lists of the administrator and of the 审核员 show every state — passed
 * through both levels, waiting at 初审 or 复审 (to-dos), rejected with a suggestion, drafts.
 *
 * 执业注册申请 keeps nothing waiting: its to-dos belong to the e2e walk of the engine (the administrator's badge there
 * counts the one application it submits).
 */

export type PersonState = 'passed' | 'level1' | 'level2' | 'rejected1' | 'rejected2' | 'draft';

/** A GB 11643 number: 小店区 etc., the birth date, a sequence whose last digit says the sex, the check character. */
export function idNumber(area: string, birth: string, seq: number, sex: '男' | '女'): string {
  const s = seq * 10 + (sex === '男' ? 1 : 2);
  const base = `${area}${birth.replaceAll('-', '')}${String(s).padStart(3, '0')}`;
  return `${base}${idNumberCheckChar(base)}`;
}

interface Person {
  xm: string;
  xb: '男' | '女';
  sfzh: string;
  lxdh: string;
}

const P = {
  liu: { xm: '刘志强', xb: '男', sfzh: idNumber('140105', '1978-03-12', 23, '男'), lxdh: '13934120561' },
  chen: { xm: '陈雅琴', xb: '女', sfzh: idNumber('140106', '1986-09-27', 5, '女'), lxdh: '13603512287' },
  wang: { xm: '王海涛', xb: '男', sfzh: idNumber('140107', '1991-11-04', 61, '男'), lxdh: '15803418842' },
  zhao: { xm: '赵丽娟', xb: '女', sfzh: idNumber('140109', '1993-05-18', 17, '女'), lxdh: '18734105526' },
  sun: { xm: '孙国栋', xb: '男', sfzh: idNumber('140110', '1983-07-30', 42, '男'), lxdh: '13835108893' },
  zhou: { xm: '周文斌', xb: '男', sfzh: idNumber('140121', '1988-12-09', 8, '男'), lxdh: '15935127764' },
  guo: { xm: '郭晓东', xb: '男', sfzh: idNumber('140181', '1995-02-21', 36, '男'), lxdh: '17635140218' },
} satisfies Record<string, Person>;

/** 从业人员登记 of the demo enterprise, with what becomes of each. */
export const DEMO_CYRY: { values: Record<string, unknown>; state: PersonState; suggestion?: string }[] = [
  {
    state: 'passed',
    values: {
      ...P.liu,
      szdq: ['山西省', '太原市', '小店区'],
      qyzz: '施工总承包资质/建筑工程施工总承包/建筑工程施工总承包二级',
      xl: '本科',
      zc: '高级工程师',
      zyzg: ['jzs1'],
      gwzs: ['施工员', '安全员'],
      zyzy: ['jz', 'sz'],
      gznx: 24,
      rzrq: '2009-03-02',
      sfbl: '0',
      grjj: '<p>项目经理，主持太原市儿童医院门诊综合楼、龙城大街东延道路等工程施工，获国家优质工程奖。</p>',
    },
  },
  {
    state: 'passed',
    values: {
      ...P.chen,
      szdq: ['山西省', '太原市', '迎泽区'],
      xl: '硕士研究生',
      zc: '工程师',
      zyzg: ['zjs'],
      gwzs: ['资料员'],
      zyzy: ['jz'],
      gznx: 13,
      rzrq: '2013-07-15',
      sfbl: '0',
      bz: '负责公司投标报价与竣工结算',
    },
  },
  {
    state: 'level2',
    values: {
      ...P.sun,
      szdq: ['山西省', '太原市', '万柏林区'],
      xl: '本科',
      zc: '工程师',
      zyzg: ['jzs2', 'aqs'],
      gwzs: ['施工员', '质量员'],
      zyzy: ['sz'],
      gznx: 18,
      rzrq: '2012-04-09',
      sfbl: '0',
    },
  },
  {
    state: 'level1',
    values: {
      ...P.wang,
      szdq: ['山西省', '太原市', '杏花岭区'],
      xl: '大专',
      zc: '助理工程师',
      gwzs: ['施工员', '材料员'],
      gznx: 9,
      rzrq: '2021-08-16',
      sfbl: '0',
    },
  },
  {
    state: 'level1',
    values: {
      ...P.zhao,
      szdq: ['山西省', '太原市', '小店区'],
      xl: '本科',
      zc: '助理工程师',
      gwzs: ['质量员', '资料员'],
      gznx: 6,
      rzrq: '2024-03-04',
      sfbl: '0',
    },
  },
  {
    state: 'rejected1',
    suggestion: '入职日期与劳动合同约定的起始日期不一致，请核实后重新提交',
    values: {
      ...P.zhou,
      szdq: ['山西省', '太原市', '清徐县'],
      xl: '中专及以下',
      zc: '无',
      gwzs: ['机械员'],
      gznx: 11,
      rzrq: '2019-10-08',
      sfbl: '1',
      blxw: '2022 年在清徐县某工地未按规定进行塔吊日常检查，被责令改正',
      blrq: '2022-06-14',
    },
  },
  {
    state: 'draft',
    values: {
      ...P.guo,
      szdq: ['山西省', '太原市', '古交市'],
      xl: '本科',
      zc: '助理工程师',
      gwzs: ['安全员'],
      gznx: 3,
      rzrq: '2025-09-01',
      sfbl: '0',
    },
  },
];

/** 执业注册申请 of the demo enterprise: none left waiting (see above). */
export const DEMO_ZYZC: { values: Record<string, unknown>; state: PersonState; suggestion?: string }[] = [
  {
    state: 'passed',
    values: {
      ...P.liu,
      zclb: 'jzs1',
      zy: ['jz', 'sz'],
      zsbh: '晋1142008200901234',
      fzrq: '2023-04-20',
      yxq: '2028-04-19',
      sfbg: '0',
      bz: '延续注册',
    },
  },
  {
    state: 'passed',
    values: {
      ...P.chen,
      zclb: 'zjs',
      zy: ['jz'],
      zsbh: '建[造]15140000012',
      fzrq: '2024-10-11',
      yxq: '2028-10-10',
      sfbg: '1',
      bgyy: '聘用单位变更为示例建设工程有限公司',
    },
  },
  {
    state: 'rejected2',
    suggestion: '执业资格证书扫描件缺少签发机关页，请补充完整后重新提交',
    values: {
      ...P.sun,
      zclb: 'jzs2',
      zy: ['sz'],
      zsbh: '晋2142012201204567',
      fzrq: '2025-06-30',
      yxq: '2028-06-29',
      sfbg: '0',
    },
  },
  {
    state: 'draft',
    values: { ...P.guo, zclb: 'aqs', fzrq: '2025-12-05', sfbg: '0', bz: '待证书原件扫描后提交' },
  },
];

/** The attachments 执业注册申请 requires (attachment types 01–03), as the person's scans. */
async function zyzcFiles(evidence: Evidence, c: EngineCaller, v: Record<string, unknown>) {
  const person: [string, string][] = [
    ['姓名', String(v.xm)],
    ['身份证号', String(v.sfzh)],
  ];
  const docs = [
    { annexNo: '01', name: `${v.xm}身份证（正反面）.pdf`, title: '居民身份证（正反面扫描件）', rows: person },
    {
      annexNo: '02',
      name: `${v.xm}执业资格证书.pdf`,
      title: '执业资格证书',
      rows: [...person, ['证书编号', String(v.zsbh ?? '')]] as [string, string][],
    },
    {
      annexNo: '03',
      name: `${v.xm}执业注册申请表.pdf`,
      title: '执业注册申请表',
      rows: [...person, ['聘用单位', '示例建设工程有限公司']] as [string, string][],
    },
  ];
  const out: { fileId: string; fileNo: string; fileOperationType: 'add' }[] = [];
  for (const d of docs) {
    const f = await evidence.upload(c, {
      name: d.name,
      gnCoding: 'XYGL_ZYZC',
      annexNo: d.annexNo,
      form: { title: d.title, note: '扫描件', rows: d.rows, footer: ['聘用单位（盖章）：', '日期：'] },
    });
    out.push({ fileId: f.fileId, fileNo: d.annexNo, fileOperationType: 'add' });
  }
  return out;
}

/**
 * One record through the engine: saved by the user (with its attachments), submitted unless a draft, decided as its
 * state says (初审 by the 审核员, 复审 by the administrator).
 */
async function through(
  tx: Db,
  who: { user: EngineCaller; admin: EngineCaller; auditor: EngineCaller },
  evidence: Evidence,
  gnCoding: string,
  p: { values: Record<string, unknown>; state: PersonState; suggestion?: string },
) {
  const saved = await saveRecord(tx, who.user, { gnCoding, values: p.values }, {});
  const id = String(saved.id);
  if (gnCoding === 'XYGL_ZYZC') {
    const fileList = await zyzcFiles(evidence, who.user, p.values);
    await applyAttachmentOps(evidence.deps, who.user, { gnCoding, id, fileList });
  }
  if (p.state === 'draft') return id;
  const version = async () => Number((await recordRow(tx, gnCoding, id))!.version);
  await submitRecord(tx, who.user, { gnCoding, id, version: await version() });
  if (p.state === 'level1') return id;
  const decide = async (c: EngineCaller, pass: boolean, suggestion?: string) =>
    auditRecord(tx, c, { gnCoding, id, version: await version(), pass, suggestion });
  if (p.state === 'rejected1') {
    await decide(who.auditor, false, p.suggestion);
    return id;
  }
  await decide(who.auditor, true);
  if (p.state === 'level2') return id;
  if (p.state === 'rejected2') await decide(who.admin, false, p.suggestion);
  else await decide(who.admin, true, '材料齐全，审核通过');
  return id;
}

export async function seedPeople(
  tx: Db,
  who: { user: EngineCaller; admin: EngineCaller; auditor: EngineCaller },
  evidence: Evidence,
) {
  const out: Record<string, string[]> = { XYGL_CYRY: [], XYGL_ZYZC: [] };
  for (const p of DEMO_CYRY) out.XYGL_CYRY!.push(await through(tx, who, evidence, 'XYGL_CYRY', p));
  for (const p of DEMO_ZYZC) out.XYGL_ZYZC!.push(await through(tx, who, evidence, 'XYGL_ZYZC', p));
  return out;
}
