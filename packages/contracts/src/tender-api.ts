import { fieldOptionSchema } from './engine';
import { paths } from './paths';
import { tenderProjectSchema, tenderSectionInputSchema, tenderSectionSchema, tenderSettingsSchema } from './tender';
import {
  openSectionSchema,
  qualificationCheckSchema,
  registrationInputSchema,
  registrationSchema,
  sectionNoticesSchema,
  tenderNoticeInputSchema,
  tenderNoticeSchema,
} from './tender-notice';
import { z } from './zod';

/** Registry entries of the five-in-one project detail: the project, its sections and the timeline settings. */
export const tenderApi = {
  tenderProject: {
    ...paths.tenderProject,
    summary:
      '项目详情（五位一体）：项目进场登记记录与其标段；招标人、招标代理（记录所属企业）与管理员、审核员可看，canEdit 表示可否维护标段',
    tag: '招标投标',
    auth: true,
    query: z.object({ id: z.uuid({ error: '缺少项目' }) }),
    data: tenderProjectSchema,
  },
  tenderSectionSave: {
    ...paths.tenderSectionSave,
    summary:
      '保存标段（新增或修改）：编号在项目内唯一；发售期、发出至截止天数与保证金比例按交易时限设置校验（默认法定最低），违反时 400 并指明条款；投标截止后不能修改；记入操作日志',
    tag: '招标投标',
    auth: true,
    body: tenderSectionInputSchema,
    data: tenderSectionSchema,
  },
  tenderSectionDelete: {
    ...paths.tenderSectionDelete,
    summary: '删除标段：项目所属企业或管理员；投标截止后不能删除；记入操作日志',
    tag: '招标投标',
    auth: true,
    body: z.object({ id: z.uuid({ error: '缺少标段' }) }).strict(),
    data: z.null(),
  },
  tenderSettings: {
    ...paths.tenderSettings,
    summary: '交易时限设置：招标文件发售天数、发出至投标截止天数、投标保证金比例上限，及其法定值',
    tag: '招标投标',
    auth: true,
    data: z.object({ settings: tenderSettingsSchema, legal: tenderSettingsSchema }),
  },
  tenderSettingsSave: {
    ...paths.tenderSettingsSave,
    summary: '保存交易时限设置（管理员）：只能比法定更严格；记入操作日志',
    tag: '招标投标',
    auth: true,
    body: tenderSettingsSchema,
    data: tenderSettingsSchema,
  },
  tenderNotices: {
    ...paths.tenderNotices,
    summary:
      '标段的招标公告与变更公告（招标公告页签）：公告的审核状态、已发布的资格要求；项目所属方与管理员、审核员可看，canEdit 表示可否编写',
    tag: '招标投标',
    auth: true,
    query: z.object({ sectionId: z.uuid({ error: '缺少标段' }) }),
    data: sectionNoticesSchema,
  },
  tenderQualificationTree: {
    ...paths.tenderQualificationTree,
    summary: '资质目录（资质选择对话框）：资质类别与等级，同类等级由高到低排列',
    tag: '招标投标',
    auth: true,
    data: z.array(fieldOptionSchema),
  },
  tenderNoticeSave: {
    ...paths.tenderNoticeSave,
    summary:
      '保存招标公告或变更公告（草稿）：正文经过滤后保存；资格要求须为资质目录中的项；变更公告须在招标公告发布后、投标截止前，影响投标文件编制且距截止不足 15 日的须顺延截止时间；记入操作日志',
    tag: '招标投标',
    auth: true,
    body: tenderNoticeInputSchema,
    data: tenderNoticeSchema,
  },
  tenderNoticeSubmit: {
    ...paths.tenderNoticeSubmit,
    summary:
      '提交公告审核（引擎审核流程）；审核通过后发布到门户交易信息（招标公告 / 变更公告）并生效资格要求或新的截止时间',
    tag: '招标投标',
    auth: true,
    body: z.object({ id: z.uuid({ error: '缺少公告' }), version: z.number().int().min(0) }).strict(),
    data: tenderNoticeSchema,
  },
  registrationQuantity: {
    ...paths.registrationQuantity,
    summary: '标段的报名数量：开标前只公开数量，不公开报名单位',
    tag: '招标投标',
    auth: true,
    query: z.object({ sectionId: z.uuid({ error: '缺少标段' }) }),
    data: z.object({ sectionId: z.string(), quantity: z.number() }),
  },
  registrationOpenSections: {
    ...paths.registrationOpenSections,
    summary: '可报名的标段（招标公告已发布、投标截止前），附本单位的报名时间',
    tag: '招标投标',
    auth: true,
    data: z.object({ records: z.array(openSectionSchema) }),
  },
  registrationCheck: {
    ...paths.registrationCheck,
    summary: '报名前的资格核验：本单位资质对照招标公告的资格要求（等级不低于要求；或 = 任一，且 = 全部），逐项说明',
    tag: '招标投标',
    auth: true,
    query: z.object({ sectionId: z.uuid({ error: '缺少标段' }) }),
    data: qualificationCheckSchema,
  },
  registrationSave: {
    ...paths.registrationSave,
    summary:
      '报名投标：企业用户，招标公告已发布且在投标截止前，资质核验通过（不通过时 400 并说明原因）；每单位每标段一次；记入操作日志',
    tag: '招标投标',
    auth: true,
    body: registrationInputSchema,
    data: registrationSchema,
  },
  registrationList: {
    ...paths.registrationList,
    summary: '标段的报名单位：开标前仅管理员可看（其他投标人与招标人只能看到数量），开标后项目所属方也可看',
    tag: '招标投标',
    auth: true,
    query: z.object({ sectionId: z.uuid({ error: '缺少标段' }) }),
    data: z.object({ records: z.array(registrationSchema) }),
  },
} as const;
