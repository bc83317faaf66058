import type { FieldDef, UniqueKey } from '@ks/contracts';
import type { Db } from '../db/client';
import { saveFields } from '../modules/engine/schema.service';
import { PERFORMANCE_FIELDS } from '../modules/performance/performance';
import { NOTICE_FIELDS } from '../modules/tender/notice-fields';
import { PROJECT_FIELDS } from '../modules/tender/project';
import { SYSTEM_ACTOR } from '../platform/oplog';

/** Options from a dictionary: the field's titleCoding names it. */
const DIC = { list: [], type: 'dic' as const };

/** Demo nodes served by the schema engine: their fields create their record tables (the same path developers use). */
export const DEMO_ENGINE_FIELDS: Record<string, FieldDef[]> = {
  // 项目进场登记 (five-in-one): the tender module reads these fields (modules/tender/project.ts)
  ZBTB_XMDJ: PROJECT_FIELDS,
  // 招标公告: written in the five-in-one 招标公告 tab (modules/tender/notice.service.ts), reviewed by the engine
  ZBTB_ZBGG: NOTICE_FIELDS,
  // 企业业绩: a final pass writes the enterprise's performance (modules/performance)
  XYGL_QYYJ: PERFORMANCE_FIELDS,
  // 信用变更申请: one record per change round (modules/credit/changes writes it on submission, same id as the round)
  XYGL_BGSQ: [
    { code: 'qymc', name: '申请企业', type: 'text', required: 1, length: 200 },
    { code: 'bgdx', name: '变更对象', type: 'text', required: 1, length: 200 },
    { code: 'bglx', name: '变更类型', type: 'text', required: 1, length: 200 },
    { code: 'bgyy', name: '变更原因', type: 'textarea', required: 1, length: 500 },
    { code: 'lc', name: '轮次', type: 'input-number' },
    { code: 'tjsj', name: '提交时间', type: 'text', length: 40 },
    { code: 'bgzt', name: '变更状态', type: 'text', length: 20 },
    { code: 'ywbm', name: '业务编码', type: 'text', length: 63 },
    { code: 'ywid', name: '业务记录', type: 'text', length: 36 },
  ],
  XYGL_ZYZC: [
    { code: 'xm', name: '姓名', type: 'text', required: 1, length: 20 },
    { code: 'xb', name: '性别', type: 'sex', required: 1 },
    // GB 11643: the check digit and a real birth date (validator idCard); an 11-digit mobile number
    { code: 'sfzh', name: '身份证号', type: 'text', required: 1, length: 18, validator: 'idCard' },
    { code: 'lxdh', name: '联系电话', type: 'text', required: 1, length: 11, validator: 'mobile' },
    // registration categories and specialties are dictionaries (dic): REG_CATEGORY, REG_SPECIALTY
    { code: 'zclb', name: '注册类别', type: 'select', required: 1, titleCoding: 'REG_CATEGORY', options: DIC },
    { code: 'zy', name: '注册专业', type: 'select-multiple', titleCoding: 'REG_SPECIALTY', options: DIC },
    { code: 'zsbh', name: '证书编号', type: 'text', length: 30 },
    { code: 'fzrq', name: '发证日期', type: 'date', validator: 'notFuture' },
    { code: 'yxq', name: '有效期至', type: 'date', parentNode: 'fzrq' },
    { code: 'sfbg', name: '是否变更注册', type: 'switch-1', childNode: 'bgyy' },
    { code: 'bgyy', name: '变更原因', type: 'textarea', parentNode: 'sfbg', length: 200 },
    { code: 'bz', name: '备注', type: 'textarea', length: 500 },
  ],
  DZBH_BHSQ: [
    { code: 'xmmc', name: '项目名称', type: 'text', required: 1, length: 100 },
    { code: 'bdmc', name: '标段名称', type: 'text', length: 100 },
    {
      code: 'sqdwdm',
      name: '申请单位统一社会信用代码',
      type: 'text',
      required: 1,
      length: 18,
      validator: 'creditCode',
      tips: '投标人（保函申请人）的统一社会信用代码，GB 32100 校验',
    },
    {
      code: 'bhlx',
      name: '保函类型',
      type: 'radio',
      required: 1,
      options: {
        list: [
          { label: '投标保函', value: 'tb' },
          { label: '履约保函', value: 'ly' },
          { label: '预付款保函', value: 'yfk' },
        ],
      },
    },
    { code: 'bhje', name: '保函金额（元）', type: 'input-number', required: 1 },
    // a guarantee for a bid still to come: its validity and the opening are not in the past
    { code: 'yxq', name: '保函有效期', type: 'daterange', required: 1, validator: 'notPast' },
    { code: 'xmszd', name: '项目所在地', type: 'cascader', titleCoding: 'REGION_SX', options: DIC },
    { code: 'kbsj', name: '开标时间', type: 'datetime', validator: 'notPast' },
    { code: 'sqrq', name: '申请日期', type: 'date', validator: 'notFuture' },
    { code: 'sfdb', name: '是否委托担保机构', type: 'switch-1', childNode: 'dbjglx,dbjg' },
    {
      code: 'dbjglx',
      name: '担保机构类型',
      type: 'select',
      parentNode: 'sfdb',
      titleCoding: 'GUARANTEE_ORG_TYPE',
      options: DIC,
    },
    { code: 'dbjg', name: '担保机构', type: 'text', parentNode: 'sfdb', length: 100 },
    { code: 'lxr', name: '联系人', type: 'text', required: 1, length: 20 },
    { code: 'lxdh', name: '联系电话', type: 'text', required: 1, length: 11, validator: 'mobile' },
    { code: 'bz', name: '备注', type: 'textarea', length: 500 },
  ],
  // 从业人员登记: every option source — dictionaries (a region cascader, selects, radio, multi-select, transfer), a
  // dependent pull-down of the enterprises of the chosen region (groupNumber `_x`), the qualification tree (cert)
  XYGL_CYRY: [
    { code: 'xm', name: '姓名', type: 'text', required: 1, length: 20 },
    { code: 'xb', name: '性别', type: 'sex', required: 1 },
    // GB 11643: the check digit and a real birth date (validator idCard); an 11-digit mobile number
    { code: 'sfzh', name: '身份证号', type: 'text', required: 1, length: 18, validator: 'idCard' },
    { code: 'lxdh', name: '联系电话', type: 'text', required: 1, length: 11, validator: 'mobile' },
    {
      code: 'szdq',
      name: '所在地区',
      type: 'cascader',
      required: 1,
      childNode: 'ssqy',
      titleCoding: 'REGION_SX',
      options: DIC,
    },
    {
      code: 'ssqy',
      name: '所属企业',
      type: 'filter-select',
      required: 1,
      parentNode: 'szdq',
      groupNumber: 'qy_x',
      tips: '先选择所在地区，再选择该地区的企业',
      options: {
        list: [],
        type: 'pull-down',
        source: { name: 'enterprises', labelField: 'name', valueField: 'name', parents: { szdq: 'region' } },
      },
    },
    { code: 'qyzz', name: '企业资质', type: 'cascader', options: { list: [], type: 'cert' } },
    { code: 'xl', name: '学历', type: 'radio', required: 1, titleCoding: 'EDUCATION', options: DIC },
    { code: 'zc', name: '职称', type: 'select', titleCoding: 'PRO_TITLE', options: DIC },
    { code: 'zyzg', name: '执业资格', type: 'select-m', titleCoding: 'REG_CATEGORY', options: DIC },
    {
      code: 'gwzs',
      name: '岗位证书',
      type: 'checkbox',
      options: {
        list: ['施工员', '质量员', '安全员', '标准员', '材料员', '机械员', '劳务员', '资料员'].map((p) => ({
          label: p,
          value: p,
        })),
      },
    },
    { code: 'zyzy', name: '注册专业', type: 'transfer', titleCoding: 'REG_SPECIALTY', options: DIC },
    { code: 'gznx', name: '从业年限', type: 'number', required: 1 },
    { code: 'rzrq', name: '入职日期', type: 'date', required: 1, validator: 'notFuture' },
    { code: 'sfbl', name: '是否有不良行为记录', type: 'switch-1', childNode: 'blxw,blrq' },
    { code: 'blxw', name: '不良行为', type: 'textarea', parentNode: 'sfbl', length: 500 },
    { code: 'blrq', name: '记录日期', type: 'date', parentNode: 'sfbl', validator: 'notFuture' },
    { code: 'grjj', name: '个人简介', type: 'editor' },
    { code: 'bz', name: '备注', type: 'textarea', length: 500 },
  ],
};

/** Uniqueness constraints of the demo nodes: a person is registered once per enterprise (从业人员登记's 身份证号). */
export const DEMO_UNIQUE_KEYS: Record<string, UniqueKey[]> = {
  XYGL_CYRY: [{ fields: ['sfzh'], withinEnterprise: true }],
  // a project number is the platform's, once
  ZBTB_XMDJ: [{ fields: ['xmbh'], withinEnterprise: false }],
};

export async function seedEngine(tx: Db): Promise<void> {
  for (const [code, fields] of Object.entries(DEMO_ENGINE_FIELDS)) {
    await saveFields(tx, SYSTEM_ACTOR, code, fields, 0, DEMO_UNIQUE_KEYS[code] ?? []);
  }
}
