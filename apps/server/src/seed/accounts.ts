import { creditCodeCheckChar } from '@ks/contracts';
import type { Db } from '../db/client';
import { organizations, serviceItems } from '../db/schema';

/** A valid unified social credit code from its first 17 characters. */
const code = (first17: string) => `${first17}${creditCodeCheckChar(first17)}`;

/** 管理机构 of the demo region (山西, SX): trading centres, the supervising department, industry authorities. */
export const DEMO_ORGANIZATIONS = [
  {
    name: '山西省公共资源交易中心',
    orgType: '交易中心',
    region: '省本级',
    creditCode: code('12140000MB1957264'),
    contact: '王志强',
    phone: '0351-5218800',
    address: '太原市小店区龙城大街 99 号',
  },
  {
    name: '太原市公共资源交易中心',
    orgType: '交易中心',
    region: '太原市',
    creditCode: code('12140100MB0283516'),
    contact: '刘芳',
    phone: '0351-4221166',
    address: '太原市万柏林区长风西街 16 号',
  },
  {
    name: '山西省发展和改革委员会',
    orgType: '监管部门',
    region: '省本级',
    creditCode: code('11140000MB1736425'),
    contact: '赵建平',
    phone: '0351-3046200',
    address: '太原市杏花岭区府西街 69 号',
  },
  {
    name: '山西省住房和城乡建设厅',
    orgType: '行业主管部门',
    region: '省本级',
    creditCode: code('11140000MB1815730'),
    contact: '孙丽娟',
    phone: '0351-3580210',
    address: '太原市迎泽区青年路 5 号',
  },
  {
    name: '大同市水务局',
    orgType: '行业主管部门',
    region: '大同市',
    creditCode: code('11140200MB0194732'),
    contact: '郭永明',
    phone: '0352-2046615',
    address: '大同市平城区御河西路 288 号',
  },
] as const;

/** 办理事项 across the demo systems. */
export const DEMO_SERVICE_ITEMS = [
  {
    name: '信用信息变更申请',
    systemCoding: 'XYGL',
    gnCoding: 'XYGL_BGSQ',
    description:
      '企业基本信息、资质、人员或业绩发生变化时，在信用管理系统提交变更申请，经交易中心审核通过后更新信用档案。',
    materials: ['信用信息变更申请表（加盖公章）', '营业执照副本扫描件', '变更事项证明材料'],
    timeLimitDays: 5,
  },
  {
    name: '信用承诺书签署',
    systemCoding: 'XYGL',
    gnCoding: 'XYGL_XYCN',
    description: '参与公共资源交易活动前在线签署信用承诺书，承诺所提交材料真实有效，签署后即时生效。',
    materials: ['法定代表人身份证明', '信用承诺书（在线签署）'],
    timeLimitDays: 0,
  },
  {
    name: '招标项目进场登记',
    systemCoding: 'ZBTB',
    gnCoding: 'ZBTB_XMDJ',
    description: '依法必须招标的工程建设项目由招标人或招标代理机构办理进场登记，登记后方可发布招标公告。',
    materials: ['项目审批、核准或备案文件', '招标人授权委托书', '招标代理合同（委托代理时提供）'],
    timeLimitDays: 1,
  },
  {
    name: '开标评标场地预约',
    systemCoding: 'CDYY',
    gnCoding: 'CDYY_CDYY',
    description: '已登记的项目按开标时间预约开标室与评标室，预约成功后系统推送场地安排。',
    materials: ['场地预约申请表', '招标公告发布截图'],
    timeLimitDays: 1,
  },
  {
    name: '投标保函在线办理',
    systemCoding: 'DZBH',
    gnCoding: 'DZBH_BHSQ',
    description: '投标人选择合作金融机构在线申请电子投标保函，出函后自动关联至对应标段，可替代现金保证金。',
    materials: ['营业执照副本扫描件', '招标文件（保证金条款页）', '保函申请书'],
    timeLimitDays: 0,
  },
  {
    name: '评标专家抽取申请',
    systemCoding: 'ZJCQ',
    gnCoding: 'ZJCQ_CQXM',
    description: '招标人在开标前提交评标专家抽取申请，系统按专业与回避规则随机抽取并语音通知专家。',
    materials: ['评标专家抽取申请表', '招标文件专业分类说明'],
    timeLimitDays: 1,
  },
] as const;

/** Seed the administration pages' demo data, inside the demo seed's transaction. */
export async function seedAccounts(tx: Db): Promise<void> {
  await tx.insert(organizations).values(DEMO_ORGANIZATIONS.map((o) => ({ ...o })));
  await tx
    .insert(serviceItems)
    .values(DEMO_SERVICE_ITEMS.map((item, i) => ({ ...item, materials: [...item.materials], sort: (i + 1) * 10 })));
}
