import type { FieldDef } from '@ks/contracts';
import type { Db } from '../db/client';
import { saveFields } from '../modules/engine/schema.service';
import { SYSTEM_ACTOR } from '../platform/oplog';

const MOBILE = '^1[3-9]\\d{9}$';

/** Demo nodes served by the schema engine: their fields create their record tables (the same path developers use). */
export const DEMO_ENGINE_FIELDS: Record<string, FieldDef[]> = {
  XYGL_ZYZC: [
    { code: 'xm', name: '姓名', type: 'text', required: 1, length: 20 },
    { code: 'xb', name: '性别', type: 'sex', required: 1 },
    {
      code: 'sfzh',
      name: '身份证号',
      type: 'text',
      required: 1,
      length: 18,
      regex: '^\\d{17}[\\dXx]$',
      prompt: '请输入18位身份证号',
    },
    { code: 'lxdh', name: '联系电话', type: 'text', required: 1, regex: MOBILE, prompt: '请输入11位手机号码' },
    {
      code: 'zclb',
      name: '注册类别',
      type: 'select',
      required: 1,
      options: {
        list: [
          { label: '一级注册建造师', value: 'jzs1' },
          { label: '二级注册建造师', value: 'jzs2' },
          { label: '注册造价工程师', value: 'zjs' },
          { label: '注册监理工程师', value: 'jls' },
        ],
      },
    },
    {
      code: 'zy',
      name: '注册专业',
      type: 'select-multiple',
      options: {
        list: [
          { label: '建筑工程', value: 'jz' },
          { label: '市政公用工程', value: 'sz' },
          { label: '机电工程', value: 'jd' },
          { label: '公路工程', value: 'gl' },
        ],
      },
    },
    { code: 'zsbh', name: '证书编号', type: 'text', length: 30 },
    { code: 'fzrq', name: '发证日期', type: 'date', limitEndDate: 'today' },
    { code: 'yxq', name: '有效期至', type: 'date', parentNode: 'fzrq' },
    { code: 'sfbg', name: '是否变更注册', type: 'switch-1', childNode: 'bgyy' },
    { code: 'bgyy', name: '变更原因', type: 'textarea', parentNode: 'sfbg', length: 200 },
    { code: 'bz', name: '备注', type: 'textarea', length: 500 },
  ],
  DZBH_BHSQ: [
    { code: 'xmmc', name: '项目名称', type: 'text', required: 1, length: 100 },
    { code: 'bdmc', name: '标段名称', type: 'text', length: 100 },
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
    { code: 'yxq', name: '保函有效期', type: 'daterange', required: 1 },
    { code: 'kbsj', name: '开标时间', type: 'datetime' },
    { code: 'sfdb', name: '是否委托担保机构', type: 'switch-1', childNode: 'dbjg' },
    { code: 'dbjg', name: '担保机构', type: 'text', parentNode: 'sfdb', length: 100 },
    { code: 'lxr', name: '联系人', type: 'text', required: 1, length: 20 },
    { code: 'lxdh', name: '联系电话', type: 'text', required: 1, regex: MOBILE, prompt: '请输入11位手机号码' },
    { code: 'bz', name: '备注', type: 'textarea', length: 500 },
  ],
};

export async function seedEngine(tx: Db): Promise<void> {
  for (const [code, fields] of Object.entries(DEMO_ENGINE_FIELDS)) {
    await saveFields(tx, SYSTEM_ACTOR, code, fields, 0);
  }
}
