import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HELP_FILE_EXTENSIONS, helpGroupSaveSchema } from '@ks/contracts';
import type { Db } from '../db/client';
import type { FileCaller } from '../modules/files/caller';
import { checkUpload, storeUploads } from '../modules/files/files.service';
import { type Form, formPdf } from '../modules/files/templates/pdf';
import { addFile, saveFaq, saveGroup } from '../modules/help/help.service';
import type { Evidence } from './evidence';

/**
 * The demo's help (screen 10) and FAQ, made through the help module's services: the credit system's manual and the
 * credit-change guide as one-page PDFs (uploaded as help files, the way the administration's upload stores them), and
 * the questions a trading centre's help desk hears most. The customer-service robot answers from these.
 */

const MANUAL: Omit<Form, 'file'> = {
  title: '信用管理系统操作手册',
  note: '山西省公共资源交易中心 · 信用管理系统 · 2026 版',
  rows: [
    ['一、登录', '选择“企业/个人”角色，输入账号、密码与验证码'],
    ['二、选择系统', '登录后在业务系统列表中进入“信用管理系统”'],
    ['三、信用记录', '信用评价 → 信用记录：查看本企业的加减分记录'],
    ['四、信用变更', '信用变更申请：对有异议的记录发起变更'],
    ['五、信用承诺书', '下载承诺书模板，盖章后上传并签署'],
    ['六、附件要求', '支持 pdf、jpg、png，单个文件不超过 10MB'],
    ['七、咨询电话', '0351-12345678（工作日 8:30-17:30）'],
  ],
  footer: ['山西省公共资源交易中心', '信用管理科'],
};

const CHANGE_GUIDE: Omit<Form, 'file'> = {
  title: '信用变更申请操作指南',
  note: '适用于对信用记录、企业信息有异议需要更正的市场主体',
  rows: [
    ['第一步', '进入“信用变更申请”，点击“新增”'],
    ['第二步', '选择变更类型：信息变更、时间变更或联系人变更'],
    ['第三步', '填写变更原因，上传证明材料（盖章扫描件）'],
    ['第四步', '点击“提交”，等待交易中心审核（3 个工作日）'],
    ['第五步', '审核通过后记录自动更新；驳回可修改后重新提交'],
  ],
  footer: ['山西省公共资源交易中心', '信用管理科'],
};

export const DEMO_FAQS: { systemCoding: string; gnCoding?: string; question: string; answer: string }[] = [
  {
    systemCoding: 'XYGL',
    gnCoding: 'XYGL_BGSQ',
    question: '信用变更怎么申请？',
    answer:
      '进入信用管理系统的“信用变更申请”，点击“新增”，选择变更类型并填写变更原因，上传盖章的证明材料后提交，交易中心在 3 个工作日内审核。',
  },
  {
    systemCoding: 'XYGL',
    question: '忘记密码怎么办？',
    answer:
      '在登录页点击“忘记密码”，通过注册手机号接收短信验证码后重设密码；手机号已停用的，请携带营业执照副本到交易中心服务窗口办理。',
  },
  {
    systemCoding: 'XYGL',
    question: 'CA锁无法识别怎么处理？',
    answer:
      '请确认已安装 CA 驱动并使用推荐浏览器；拔插 CA 锁后重启浏览器。仍无法识别的，请联系 CA 服务商客服或到交易中心 CA 服务窗口检测。',
  },
  {
    systemCoding: 'XYGL',
    gnCoding: 'XYGL_XYJL',
    question: '信用记录有误如何更正？',
    answer: '对信用记录有异议的，可在“信用变更申请”中发起信息变更，附上证明材料，审核通过后记录将被更正。',
  },
  {
    systemCoding: 'XYGL',
    gnCoding: 'XYGL_XYCN',
    question: '信用承诺书在哪里下载和签署？',
    answer: '进入“信用承诺书”，下载模板，加盖公章后扫描上传，再点击“签署”即可完成。',
  },
  {
    systemCoding: 'XYGL',
    question: '信用等级多久更新一次？',
    answer: '信用等级按季度评定，每季度首月 15 日前公示上一季度的评定结果；加减分记录审核通过后实时计入得分。',
  },
  {
    systemCoding: 'XYGL',
    question: '企业信息变更后需要重新提交审核吗？',
    answer: '需要。企业名称、法定代表人、注册资本等信息变更后，请在“企业信息”中修改并提交，经交易中心审核通过后生效。',
  },
  {
    systemCoding: 'ZBTB',
    question: '投标保证金如何缴纳和退还？',
    answer:
      '投标保证金通过交易平台生成的虚拟子账号缴纳，须在投标截止时间前到账；未中标的在中标通知书发出后 5 日内原路退还，也可选用电子保函替代。',
  },
  {
    systemCoding: 'DZBH',
    question: '电子保函怎么办理？',
    answer: '进入电子保函系统的“保函申请”，选择项目与出函机构，上传营业执照和保函申请书，支付保费后即时出函。',
  },
  {
    systemCoding: 'ZBTB',
    question: '上传投标文件失败怎么办？',
    answer: '请检查网络并确认文件格式与大小符合要求；大文件会分片上传，网络中断后重新选择同一文件即可续传。',
  },
];

/** A help file uploaded by the administrator: a one-page PDF, stored as the administration's upload stores it. */
async function uploadHelpPdf(admin: FileCaller, evidence: Evidence, name: string, form: Omit<Form, 'file'>) {
  const bytes = formPdf({ ...form, file: name });
  const file = path.join(evidence.deps.spoolDir, `help-${createHash('md5').update(name).digest('hex')}`);
  await writeFile(file, bytes);
  const u = {
    rawName: name,
    spooled: {
      path: file,
      size: bytes.length,
      md5: createHash('md5').update(bytes).digest('hex'),
      head: bytes.subarray(0, 64),
    },
    gnCoding: null,
    annexNo: null,
    allowed: HELP_FILE_EXTENSIONS,
    visibility: 'private' as const,
    source: 'help',
  };
  const [out] = await storeUploads(evidence.deps, admin, [{ ...u, ...(await checkUpload(evidence.deps, u)) }]);
  return out!;
}

export async function seedHelp(tx: Db, admin: FileCaller, evidence: Evidence) {
  const system = await saveGroup(
    tx,
    admin.actor,
    helpGroupSaveSchema.parse({ systemCoding: 'XYGL', groupName: '系统使用说明' }),
  );
  const manual = await uploadHelpPdf(admin, evidence, '信用管理系统操作手册.pdf', MANUAL);
  await addFile(tx, admin.actor, { groupId: system.id, fileId: manual.fileId });
  const change = await saveGroup(
    tx,
    admin.actor,
    helpGroupSaveSchema.parse({ systemCoding: 'XYGL', gnCoding: 'XYGL_BGSQ', groupName: '信用变更申请' }),
  );
  const guide = await uploadHelpPdf(admin, evidence, '信用变更申请操作指南.pdf', CHANGE_GUIDE);
  await addFile(tx, admin.actor, { groupId: change.id, fileId: guide.fileId });
  for (const [i, f] of DEMO_FAQS.entries()) {
    await saveFaq(tx, admin.actor, { ...f, sort: i + 1 });
  }
}
