import {
  bidChunkFormSchema,
  bidCipherQuerySchema,
  bidFileSchema,
  bidFinishSchema,
  bidIdSchema,
  bidKeySaveSchema,
  bidKeySchema,
  bidKeyStateSchema,
  bidOverviewSchema,
  bidReceiptSchema,
  bidSectionsSchema,
  bidTaskResultSchema,
  bidTaskSchema,
} from './bids';
import { paths } from './paths';
import { z } from './zod';

const T = '投标文件';

/**
 * Registry entries of sealed bids (issue 16). Bidders (U accounts of a registered enterprise) upload ciphertext their
 * browser made; nobody — administrators included — reads a bid's content before its bidder decrypts it at opening.
 */
export const bidsApi = {
  bidKey: {
    ...paths.bidKey,
    summary: '我的投标加密密钥：当前密钥（口令保护的私钥密文，服务器不知口令）与可用的 CA 证书',
    tag: T,
    auth: true,
    data: bidKeyStateSchema,
  },
  bidKeySave: {
    ...paths.bidKeySave,
    summary:
      '设置投标加密密钥：浏览器生成的 RSA-OAEP 密钥对（私钥以口令派生密钥加密后保存），或已绑定的 RSA CA 证书的公钥；旧密钥保留以便解密已递交的文件；记入操作日志',
    tag: T,
    auth: true,
    body: bidKeySaveSchema,
    data: bidKeySchema,
  },
  bidKeyById: {
    ...paths.bidKeyById,
    summary: '本人的一把投标加密密钥（含已更换的），解密自检用',
    tag: T,
    auth: true,
    query: bidIdSchema,
    data: bidKeySchema,
  },
  bidSections: {
    ...paths.bidSections,
    summary: '本单位已报名的标段与已封存的投标文件回执',
    tag: T,
    auth: true,
    data: bidSectionsSchema,
  },
  bidOverview: {
    ...paths.bidOverview,
    summary: '一个标段中本单位的投标文件（封存、撤回与替换的记录）',
    tag: T,
    auth: true,
    query: bidIdSchema,
    data: bidOverviewSchema,
  },
  bidTask: {
    ...paths.bidTask,
    summary:
      '开始上传加密的投标文件：已报名的投标企业、投标截止前；密文大小须与明文大小相符，文件密钥以当前加密密钥封装；返回尚缺的分片',
    tag: T,
    auth: true,
    body: bidTaskSchema,
    data: bidTaskResultSchema,
  },
  bidChunk: {
    ...paths.bidChunk,
    summary:
      '上传一个密文分片（multipart：uploadId、chunk 从 0 开始、sha256 为该分片的，先于 file）；哈希不符不记录；投标截止后拒绝',
    tag: T,
    auth: true,
    form: bidChunkFormSchema,
    data: z.object({ chunk: z.number().int(), uploaded: z.number().int(), total: z.number().int() }),
  },
  bidFinish: {
    ...paths.bidFinish,
    summary:
      '完成上传并封存：服务器计算所存密文的 SHA-256，替换本单位此前封存的文件，返回回执（密文与明文 SHA-256、时间）；投标截止后拒绝；记入操作日志',
    tag: T,
    auth: true,
    body: bidFinishSchema,
    data: bidReceiptSchema,
  },
  bidWithdraw: {
    ...paths.bidWithdraw,
    summary: '撤回本单位封存的投标文件（投标截止前）；密文删除，记录保留；记入操作日志',
    tag: T,
    auth: true,
    body: bidIdSchema,
    data: bidFileSchema,
  },
  bidCipher: {
    ...paths.bidCipher,
    summary: '下载本单位投标文件的一个密文分片（投标截止前，投标人解密自检用）；其他任何人的请求被拒绝并记入操作日志',
    tag: T,
    auth: true,
    query: bidCipherQuerySchema,
    binary: true,
    data: z.unknown(),
  },
  bidContent: {
    ...paths.bidContent,
    summary: '下载或预览投标文件内容：开标解密前对任何角色（包括管理员）一律拒绝，并记入操作日志',
    tag: T,
    auth: true,
    query: bidIdSchema,
    binary: true,
    data: z.unknown(),
  },
} as const;
