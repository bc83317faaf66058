import { type FieldDef, TENDER_PROJECT_NODE } from '@ks/contracts';
import { z } from 'zod';
import { nodeAccessor } from '../engine/accessor';

/**
 * 项目进场登记 (ZBTB_XMDJ): the project of the five-in-one entry is a record of this engine node — its form, list,
 * review, to-dos and export come from the engine; the seed configures these fields (an administrator may add more).
 * The tender module reads the fields it shows through this accessor.
 */
const DIC = { list: [], type: 'dic' as const };
export const PROJECT_FIELDS: FieldDef[] = [
  { code: 'xmmc', name: '项目名称', type: 'text', required: 1, length: 200 },
  { code: 'xmbh', name: '项目编号', type: 'text', required: 1, length: 40, tips: '如 SXGC-2026-0815，平台内唯一' },
  {
    code: 'xmlx',
    name: '项目类型',
    type: 'select',
    required: 1,
    options: {
      list: ['房屋建筑工程', '市政公用工程', '公路工程', '水利水电工程', '园林绿化工程', '装饰装修工程'].map((v) => ({
        label: v,
        value: v,
      })),
    },
  },
  {
    code: 'zbfs',
    name: '招标方式',
    type: 'radio',
    required: 1,
    options: {
      list: [
        { label: '公开招标', value: '公开招标' },
        { label: '邀请招标', value: '邀请招标' },
      ],
    },
  },
  { code: 'zbr', name: '招标人', type: 'text', required: 1, length: 200 },
  {
    code: 'zbrdm',
    name: '招标人统一社会信用代码',
    type: 'text',
    required: 1,
    length: 18,
    validator: 'creditCode',
  },
  { code: 'dljg', name: '招标代理机构', type: 'text', length: 200, tips: '招标人自行招标时不填' },
  { code: 'xmszd', name: '项目所在地', type: 'cascader', required: 1, titleCoding: 'REGION_SX', options: DIC },
  { code: 'ztz', name: '项目总投资（元）', type: 'input-number', required: 1 },
  {
    code: 'zjly',
    name: '资金来源',
    type: 'select',
    required: 1,
    options: {
      list: ['财政资金', '地方政府专项债券', '国有企业自有资金', '自筹资金'].map((v) => ({ label: v, value: v })),
    },
  },
  { code: 'xmgk', name: '项目概况', type: 'textarea', length: 1000 },
  { code: 'lxr', name: '联系人', type: 'text', required: 1, length: 20 },
  { code: 'lxdh', name: '联系电话', type: 'text', required: 1, length: 11, validator: 'mobile' },
];

const text = z.string().nullable();
export const projects = nodeAccessor(TENDER_PROJECT_NODE, {
  xmmc: text,
  xmbh: text,
  xmlx: text,
  zbfs: text,
  zbr: text,
  zbrdm: text,
  dljg: text,
  xmszd: text,
  ztz: z.number().nullable(),
  zjly: text,
  xmgk: text,
  lxr: text,
  lxdh: text,
});
