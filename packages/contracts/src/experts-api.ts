import {
  extractionAnsweredSchema,
  extractionAnswerSchema,
  extractionCreateSchema,
  extractionDetailSchema,
  extractionIdSchema,
  extractionListQuerySchema,
  extractionOptionsSchema,
  extractionPageSchema,
  extractionVerifySchema,
} from './experts';
import { paths } from './paths';
import { z } from './zod';

const T = '专家抽取';

/**
 * Registry entries of expert extraction (issue 16). Every change is the extraction administrator's (platform
 * administrators, M); developers and users granted the 抽取项目 node read the records with the names hidden until
 * evaluation starts. The verification is answered to anyone who has the record's id.
 */
export const expertsApi = {
  extractionOptions: {
    ...paths.extractionOptions,
    summary: '抽取条件的选项：评标专业（技术/经济）及在库人数、山西地市、近期回避天数默认值、专家库（回避指定专家用）',
    tag: T,
    auth: true,
    data: extractionOptionsSchema,
  },
  extractionList: {
    ...paths.extractionList,
    summary: '抽取记录列表（关键字：项目、标段、编号；状态）',
    tag: T,
    auth: true,
    body: extractionListQuerySchema,
    data: extractionPageSchema,
  },
  extractionDetail: {
    ...paths.extractionDetail,
    summary: '抽取记录详情：条件、种子承诺（SHA-256）、快照哈希、名单（评标开始前仅抽取管理员可见姓名）、操作日志',
    tag: T,
    auth: true,
    query: extractionIdSchema,
    data: extractionDetailSchema,
  },
  extractionCreate: {
    ...paths.extractionCreate,
    summary:
      '新建抽取（草稿）：项目、标段、开标与评标时间、抽取条件（评标委员会五人以上单数，技术经济专家不少于三分之二）',
    tag: T,
    auth: true,
    body: extractionCreateSchema,
    data: extractionDetailSchema,
  },
  extractionDelete: {
    ...paths.extractionDelete,
    summary: '删除未提交种子承诺的草稿',
    tag: T,
    auth: true,
    body: extractionIdSchema,
    data: z.null(),
  },
  extractionCommit: {
    ...paths.extractionCommit,
    summary:
      '提交种子承诺：服务器生成 32 字节随机种子，保存专家库快照，公布并记录 SHA-256(种子) 与快照哈希（抽取之前）',
    tag: T,
    auth: true,
    body: extractionIdSchema,
    data: extractionDetailSchema,
  },
  extractionDraw: {
    ...paths.extractionDraw,
    summary: '按已承诺的种子和快照抽取专家（确定性：同一种子与快照得到同一名单）',
    tag: T,
    auth: true,
    body: extractionIdSchema,
    data: extractionDetailSchema,
  },
  extractionAnswer: {
    ...paths.extractionAnswer,
    summary: '登记专家电话答复：确认参加，或拒绝（需原因）并按同一条件、同一种子链补抽一名',
    tag: T,
    auth: true,
    body: extractionAnswerSchema,
    data: extractionAnsweredSchema,
  },
  extractionFinalize: {
    ...paths.extractionFinalize,
    summary: '确认名单（各专业人数已全部确认参加）：公开种子供验证（评标开始前仅抽取管理员可见）',
    tag: T,
    auth: true,
    body: extractionIdSchema,
    data: extractionDetailSchema,
  },
  extractionPublish: {
    ...paths.extractionPublish,
    summary: '评标开始后公开专家名单',
    tag: T,
    auth: true,
    body: extractionIdSchema,
    data: extractionDetailSchema,
  },
  extractionVerify: {
    ...paths.extractionVerify,
    summary: '验证抽取：返回种子承诺、公开的种子、专家库快照、条件与名单，并由服务器按种子重新抽取比对（无需登录）',
    tag: T,
    auth: false,
    query: extractionIdSchema,
    data: extractionVerifySchema,
  },
} as const;
