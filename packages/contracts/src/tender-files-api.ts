import { paths } from './paths';
import {
  clarificationSchema,
  clarifyAuditSchema,
  clarifyInputSchema,
  downloadRecordsPageSchema,
  downloadRecordsQuerySchema,
  downloadStatusSchema,
  projectSectionFilesSchema,
  sectionAttachmentsSchema,
  sectionClarificationsSchema,
  tenderDocInputSchema,
  tenderDocSchema,
  tenderDocsSchema,
  tenderDownloadQuerySchema,
  tenderIdRefSchema,
  tenderSectionRefSchema,
} from './tender-files';
import { z } from './zod';

const T = '招标文件与澄清';

/**
 * Registry entries of the 招标文件 tab (issue 16): a section's tender documents, their recorded downloads, and the
 * clarification (澄清 / 修改) flow — drafted by the project's side, audited by the trading centre, sent to every
 * registered bidder.
 */
export const tenderFilesApi = {
  tenderProjectFiles: {
    ...paths.tenderProjectFiles,
    summary:
      '项目各标段的文件（标段附件）：招标文件及其下载次数、澄清文件及其状态；项目的招标人、招标代理、交易中心、开发者、审核人与监督人员可看，投标人与他人 404',
    tag: T,
    auth: true,
    query: z.object({ projectId: z.uuid({ error: '缺少项目' }) }),
    data: projectSectionFilesSchema,
  },
  tenderSectionAttachments: {
    ...paths.tenderSectionAttachments,
    summary:
      '一个标段的附件：招标文件（及投标人下载次数）与澄清文件（及状态），按时间排列；可看者同 bd-files；已报名的投标人 403（请在「招标文件」中下载，下载须记录）',
    tag: T,
    auth: true,
    query: z.object({ sectionId: z.uuid({ error: '缺少标段' }) }),
    data: sectionAttachmentsSchema,
  },
  tenderFiles: {
    ...paths.tenderFiles,
    summary:
      '标段的招标文件：项目的招标人、招标代理、交易中心与已报名的投标人可看；canEdit 表示可否增删（发售开始前或招标公告发布前），canDownload 表示投标人可否下载（发售开始至投标截止）',
    tag: T,
    auth: true,
    body: tenderSectionRefSchema,
    data: tenderDocsSchema,
  },
  tenderFileSave: {
    ...paths.tenderFileSave,
    summary:
      '保存招标文件（先上传文件得到 fileId）：项目的招标人或招标代理；发售开始后（招标公告已发布时）不能再增加，须以澄清或修改发出；记入操作日志',
    tag: T,
    auth: true,
    body: tenderDocInputSchema,
    data: tenderDocSchema,
  },
  tenderFileDelete: {
    ...paths.tenderFileDelete,
    summary: '删除招标文件：项目的招标人或招标代理；仅在发售开始前或招标公告发布前；记入操作日志',
    tag: T,
    auth: true,
    body: tenderIdRefSchema,
    data: z.null(),
  },
  tenderFileDownload: {
    ...paths.tenderFileDownload,
    summary:
      '下载招标文件：已报名该标段的投标人，发售开始至投标截止；每次下载记录文件、用户、单位、时间与 IP；项目方与交易中心也可下载（不计入投标人下载记录）',
    tag: T,
    auth: true,
    query: tenderDownloadQuerySchema,
    binary: true,
    data: z.unknown(),
  },
  tenderFileDownloadStatus: {
    ...paths.tenderFileDownloadStatus,
    summary:
      '招标文件下载情况：交易中心看全部；项目的招标人、招标代理开标前只看下载数量（开标前不公开下载单位），开标后看全部；投标人只看本单位的下载记录',
    tag: T,
    auth: true,
    body: tenderSectionRefSchema,
    data: downloadStatusSchema,
  },
  tenderFileRecords: {
    ...paths.tenderFileRecords,
    summary: '招标文件下载记录分页（交易中心），可按标段筛选',
    tag: T,
    auth: true,
    body: downloadRecordsQuerySchema,
    data: downloadRecordsPageSchema,
  },
  clarifyList: {
    ...paths.clarifyList,
    summary:
      '标段的澄清或修改：项目方与交易中心看全部，已报名的投标人只看已发出的；每条附可做的操作（修改、删除、提交、撤回、审核、发出）',
    tag: T,
    auth: true,
    body: tenderSectionRefSchema,
    data: sectionClarificationsSchema,
  },
  clarifySave: {
    ...paths.clarifySave,
    summary:
      '保存澄清或修改（草稿）：项目的招标人或招标代理；投标截止前；影响投标文件编制且距截止不足 clarifyDays（法定 15）日的须顺延投标截止时间；记入操作日志',
    tag: T,
    auth: true,
    body: clarifyInputSchema,
    data: clarificationSchema,
  },
  clarifySubmit: {
    ...paths.clarifySubmit,
    summary: '提交澄清或修改，待交易中心审核（草稿或被驳回的）',
    tag: T,
    auth: true,
    body: tenderIdRefSchema,
    data: clarificationSchema,
  },
  clarifyAudit: {
    ...paths.clarifyAudit,
    summary: '交易中心审核澄清或修改：通过或驳回（驳回须填写审核意见）',
    tag: T,
    auth: true,
    body: clarifyAuditSchema,
    data: clarificationSchema,
  },
  clarifySend: {
    ...paths.clarifySend,
    summary:
      '发出审核通过的澄清或修改：通知每个报名投标人（消息中心），记录发出时间；需顺延时标段的投标截止时间改为新的截止时间（不足 15 日规则在发出时再次校验）',
    tag: T,
    auth: true,
    body: tenderIdRefSchema,
    data: clarificationSchema,
  },
  clarifyDelete: {
    ...paths.clarifyDelete,
    summary: '删除澄清或修改：仅草稿或被驳回的',
    tag: T,
    auth: true,
    body: tenderIdRefSchema,
    data: z.null(),
  },
  clarifyRevoke: {
    ...paths.clarifyRevoke,
    summary: '撤回已提交、尚未审核的澄清或修改（回到草稿）',
    tag: T,
    auth: true,
    body: tenderIdRefSchema,
    data: clarificationSchema,
  },
} as const;
