import {
  openingAnswerSchema,
  openingDecryptSchema,
  openingHallSchema,
  openingRespondSchema,
  openingSectionBodySchema,
  openingSectionQuerySchema,
  openingSectionsSchema,
  openingStartSchema,
} from './opening';
import { paths } from './paths';
import { z } from './zod';

const T = '开标大厅';

/**
 * Registry entries of the remote opening hall (issue 17). Every change is a step of the tamper-evident log and is
 * announced to the hall through the live channel (event `opening`, data { sectionId }).
 */
export const openingApi = {
  openingSections: {
    ...paths.openingSections,
    summary: '可进入开标大厅的标段：主持的（项目的招标人、招标代理，管理员为全部）、本单位递交了投标文件的、监督查看的',
    tag: T,
    auth: true,
    data: openingSectionsSchema,
  },
  openingHall: {
    ...paths.openingHall,
    summary:
      '开标大厅的当前状态：阶段、倒计时所用的服务器时间、签到、各投标文件的解密状态与已唱出的开标一览表、确认与异议、本标段的开评标日志；开标前不公开投标人名单，唱标前不公开任何报价',
    tag: T,
    auth: true,
    query: openingSectionQuerySchema,
    data: openingHallSchema,
  },
  openingSignIn: {
    ...paths.openingSignIn,
    summary: '投标人签到（本单位有封存的投标文件；解密结束前）；记入开评标日志',
    tag: T,
    auth: true,
    body: openingSectionBodySchema,
    data: openingHallSchema,
  },
  openingStart: {
    ...paths.openingStart,
    summary:
      '主持人开标：投标截止时间前拒绝；封存的投标文件少于 3 家时标段流标（须重新招标）；否则开始解密计时，并在日志中承诺唱标顺序的随机种子（SHA-256）',
    tag: T,
    auth: true,
    body: openingStartSchema,
    data: openingHallSchema,
  },
  openingDecrypt: {
    ...paths.openingDecrypt,
    summary:
      '投标人提交在浏览器中以 CA 锁或口令解开的文件密钥：服务器以之解密所存密文，核对封存时的密文与明文 SHA-256，解开开标一览表；解密时限过后拒绝并记录',
    tag: T,
    auth: true,
    body: openingDecryptSchema,
    data: openingHallSchema,
  },
  openingDraw: {
    ...paths.openingDraw,
    summary:
      '抽取唱标顺序：全部解密或解密时限已过后；逾期未解密的投标文件记为不予唱标并写明原因；公开随机种子，顺序为按 SHA-256(种子‖投标文件编号) 排序',
    tag: T,
    auth: true,
    body: openingSectionBodySchema,
    data: openingHallSchema,
  },
  openingRead: {
    ...paths.openingRead,
    summary: '唱标：按抽取的顺序唱出下一家的投标报价、工期、质量标准与项目经理，实时推送至大厅内所有人',
    tag: T,
    auth: true,
    body: openingSectionBodySchema,
    data: openingHallSchema,
  },
  openingRespond: {
    ...paths.openingRespond,
    summary: '投标人在线确认开标结果，或提出异议（唱标结束后、开标结束前）',
    tag: T,
    auth: true,
    body: openingRespondSchema,
    data: openingHallSchema,
  },
  openingAnswer: {
    ...paths.openingAnswer,
    summary: '主持人当场答复异议，答复记入开标记录与开评标日志',
    tag: T,
    auth: true,
    body: openingAnswerSchema,
    data: openingHallSchema,
  },
  openingClose: {
    ...paths.openingClose,
    summary: '结束开标：异议均已答复；未确认的投标人记为未确认；生成开标记录',
    tag: T,
    auth: true,
    body: openingSectionBodySchema,
    data: openingHallSchema,
  },
  openingRecord: {
    ...paths.openingRecord,
    summary: '开标记录（PDF）：投标人、解密情况、唱标顺序与内容、确认与异议及答复、日志哈希',
    tag: T,
    auth: true,
    query: openingSectionQuerySchema,
    binary: true,
    data: z.unknown(),
  },
} as const;
