import { paths } from './paths';
import { tenderProjectSchema, tenderSectionInputSchema, tenderSectionSchema, tenderSettingsSchema } from './tender';
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
} as const;
