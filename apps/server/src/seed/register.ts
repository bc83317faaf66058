import { creditCodeCheckChar, REGISTRATION_NODE } from '@ks/contracts';
import type { Db } from '../db/client';
import { policyContext } from '../modules/engine/record-access';
import { nodeForEngine } from '../modules/engine/schema.repo';
import { ensureRegistrationNode } from '../modules/register/node';
import { applicantCaller, createApplication } from '../modules/register/registration.service';
import type { Evidence } from './evidence';

/** The demo's self-registration waiting for review: a Shanxi contractor with a valid credit code (GB 32100). */
const BASE = '91140700MA0L3R5K2';
export const DEMO_REGISTRATION = {
  name: '晋中市恒泰建筑工程有限公司',
  creditCode: `${BASE}${creditCodeCheckChar(BASE)}`,
  enterpriseType: '施工企业',
  region: '晋中市',
  address: '晋中市榆次区顺城街 128 号',
  legalPerson: '赵志刚',
  legalPhone: '13935412876',
  contactName: '孙丽娟',
  contactPhone: '13803541268',
  account: 'hengtai_admin',
  applicationNo: 'ZC20261120000318',
} as const;

/**
 * The registration review (node 企业注册审核 of 平台管理, its applicant account) and one application waiting in it, so
 * the administrator's to-dos show a registration to decide. Made through the module's own functions.
 */
export async function seedRegistration(tx: Db, passwordHash: string, evidence: Evidence): Promise<void> {
  await ensureRegistrationNode(tx);
  const d = DEMO_REGISTRATION;
  const caller = await applicantCaller(tx, d.contactName, null);
  const licence = await evidence.upload(caller, {
    name: '营业执照副本.pdf',
    gnCoding: REGISTRATION_NODE,
    form: {
      title: '营业执照（副本）',
      note: `统一社会信用代码：${d.creditCode}`,
      rows: [
        ['名称', d.name],
        ['类型', '有限责任公司（自然人投资或控股）'],
        ['法定代表人', d.legalPerson],
        ['住所', d.address],
        ['注册资本', '伍仟万元整'],
        ['成立日期', '2012 年 04 月 16 日'],
      ],
      footer: ['登记机关：晋中市市场监督管理局', '（演示文件）'],
    },
  });
  const node = await nodeForEngine(tx, REGISTRATION_NODE);
  const ctx = await policyContext(tx, caller, REGISTRATION_NODE);
  await tx.transaction((t) =>
    createApplication(t, caller, node, ctx, {
      ...d,
      passwordHash,
      licenceFileId: licence.fileId,
      ip: '127.0.0.1',
      at: new Date(),
    }),
  );
}
