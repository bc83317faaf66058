import { ANNEX_SIZE_MAX_MB, KNOWN_FORMATS, MAX_ATTACHMENT_TYPES, parseFormats } from './files-rules';
import { paths } from './paths';
import { CODE_PATTERN } from './shell-constants';
import { z } from './zod';

/**
 * Files (spec §3 uploaded-file record, annex, attachment type, upload init payload; §7 File, upload).
 *
 * Multipart calls (`form` in the registry) take their text fields as form fields and the file in the part named
 * `file` (the editor's in `custom-fileName`); send the text fields BEFORE the file, so the server can check them
 * before it reads the bytes (it still works the other way round, a little slower). Every answer names files by
 * `fileId`; `url` downloads with the bearer token, and `filePreviewUrl` gives a short-lived address that works in
 * <img>, <iframe> and <video> (Range requests) without one.
 */

const gnCoding = z.string().trim().regex(CODE_PATTERN, '节点编码格式有误');
const code = z.string().trim().max(63, '编码最多 63 个字符');
const optionalCode = code.optional().transform((v) => (v ? v : undefined));
const md5 = z
  .string()
  .trim()
  .regex(/^[0-9a-fA-F]{32}$/, 'md5 应为 32 位十六进制')
  .transform((v) => v.toLowerCase());
const fileName = z.string().min(1, '文件名不能为空').max(1000, '文件名过长');
const TASK_GONE = '上传任务不存在或已过期，请重新上传';
const uuid = (message = '文件不存在') => z.string().uuid(message);
/** form fields arrive as text */
const intText = (min: number, max: number, message: string) =>
  z.coerce.number({ message }).int(message).min(min, message).max(max, message);

/** §3 uploaded-file record. `fileKey` is the file's id too: storage keys never leave the server. */
export const uploadedFileSchema = z.object({
  fileId: z.string(),
  fileKey: z.string(),
  fileName: z.string(),
  fileSize: z.number().int(),
  /** extension, lower case */
  fileType: z.string(),
  mime: z.string(),
  md5: z.string(),
  /** download address (bearer token); public files (editor images, notice attachments) need none */
  url: z.string(),
  /** attachment type (annexNo) the file was uploaded for, if any */
  fileNo: z.string().nullable(),
  /** image | pdf | video | null (download only) */
  preview: z.enum(['image', 'pdf', 'video']).nullable(),
  gnCoding: z.string().nullable(),
  recordId: z.string().nullable(),
  createdAt: z.string(),
  /** §4: add for a file uploaded in this edit */
  fileOperationType: z.enum(['add', 'del', '']),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

/** §3 attachment type of a node, with its template. */
export const attachmentTypeSchema = z.object({
  annexNo: z.string(),
  annexName: z.string(),
  /** formats, comma separated, e.g. "pdf,jpg,png" */
  annexFormat: z.string(),
  /** MB; 0: only the global limit */
  annexSize: z.number(),
  isRequired: z.boolean(),
  fileType: z.string(),
  /** public address of the template file, or null */
  template: z.string().nullable(),
  templateName: z.string().nullable(),
});
export type AttachmentType = z.infer<typeof attachmentTypeSchema>;

/** §3 annex: one row per file of a type, and one row with url null for a type without a file. */
export const annexSchema = z.object({
  annexName: z.string(),
  annexNo: z.string().nullable(),
  isRequired: z.boolean(),
  fileType: z.string(),
  url: z.string().nullable(),
  fileId: z.string().nullable(),
  fileName: z.string().nullable(),
  fileSize: z.number().nullable(),
  preview: z.enum(['image', 'pdf', 'video']).nullable(),
  fileOperationType: z.enum(['add', 'del', '']),
});
export type Annex = z.infer<typeof annexSchema>;

// ---- single-request uploads (multipart) ---------------------------------------------------------------------------

/** POST /ks/common/common/upload/attachment: dxCode is the attachment type (annexNo) when the node has types. */
export const attachmentUploadFormSchema = z.object({
  dxCode: optionalCode,
  gnCoding,
  systemCoding: optionalCode,
});
/** The small-file call (§7): fileNo is the attachment type (annexNo); fileType is kept as given. */
export const smallUploadFormSchema = z.object({
  fileType: z.string().trim().max(40).optional(),
  gnCoding: gnCoding.optional(),
  systemCoding: optionalCode,
  fileNo: optionalCode,
});
export const batchUploadFormSchema = z.object({
  gnCoding,
  systemCoding: optionalCode,
  dxCode: optionalCode,
  /** files in this call, default 3 (§5), at most 10 */
  maxCount: intText(1, 10, '单次上传文件数应为 1 到 10').optional(),
});
export const noticeUploadFormSchema = z.object({ systemCoding: optionalCode });

// ---- chunked upload ------------------------------------------------------------------------------------------------

/** §3 upload init payload: md5 of the whole file, name, number of chunks, size; plus where the file belongs. */
export const uploadTaskSchema = z.object({
  md5,
  fileName,
  /** number of chunks: ceil(fileSize / 5242880) */
  chunk: z.number().int().min(1).max(10_000),
  fileSize: z.number().int().min(1, '不能上传空文件'),
  gnCoding: gnCoding.optional(),
  systemCoding: optionalCode,
  /** attachment type (annexNo) */
  fileNo: optionalCode,
  fileType: z.string().trim().max(40).optional(),
  /** attachment (default: images and PDF, or the type's formats) | video (mp4, webm; public address, for the editor) */
  /** attachment (private), video (the editor's, public) or notice (a portal notice's attachment, public) */
  usage: z.enum(['attachment', 'video', 'notice', 'help', 'library']).default('attachment'),
});
export const uploadTaskResultSchema = z.object({
  /** null when the file was already there (instant upload) */
  uploadId: z.string().nullable(),
  /** the file's address once it is complete (instant upload, or a task whose chunks were all stored); '' otherwise */
  url: z.string(),
  /** one entry per chunk the server still needs, 0-based */
  uploadUrlList: z.array(z.object({ chunk: z.number().int(), url: z.string() })),
  md5: z.string(),
  chunkSize: z.number().int(),
  total: z.number().int(),
  /** the complete file, when url is set */
  file: uploadedFileSchema.nullable(),
});
export const chunkUploadFormSchema = z.object({
  /** 0-based index of the chunk sent */
  chunk: intText(0, 9_999, '分片序号有误'),
  uploadId: uuid(TASK_GONE),
  /** md5 of the whole file */
  md5,
});
export const chunkUploadResultSchema = z.object({
  percent: z.number(),
  chunk: z.number().int(),
  uploaded: z.number().int(),
  total: z.number().int(),
});
export const fileMergeSchema = z.object({
  uploadId: uuid(TASK_GONE),
  fileName,
  md5,
  gnCoding: gnCoding.optional(),
  systemCoding: optionalCode,
  fileNo: optionalCode,
});
export const uploadCancelSchema = z.object({ uploadId: z.string().max(100) });
export const uploadPartsQuerySchema = z.object({ uploadId: uuid(TASK_GONE) });
export const uploadPartsSchema = z.object({
  uploadId: z.string(),
  status: z.string(),
  total: z.number().int(),
  parts: z.array(z.object({ chunk: z.number().int(), size: z.number().int(), createdAt: z.string() })),
});

// ---- lists, types, binding ----------------------------------------------------------------------------------------

export const recordFilesQuerySchema = z.object({ gnCoding, id: z.string().uuid('记录不存在') });
export const attDescriptionQuerySchema = z.object({ gnCoding, systemCoding: optionalCode });
export const attDescriptionSchema = z.object({
  list: z.array(attachmentTypeSchema),
  /** the first type's template, for pages with one 模板下载 button */
  template: z.string().nullable(),
});
export const fileAttachmentSchema = z.object({
  gnCoding,
  id: z.string().uuid('记录不存在'),
  fileList: z
    .array(
      z.object({
        fileId: uuid(),
        fileNo: optionalCode,
        fileOperationType: z.enum(['add', 'del', '']).default(''),
      }),
    )
    .max(200),
});
/** Template file names (the server's template folder); the same rule as the template download. */
const TEMPLATE_NAME = /^[a-z0-9][a-z0-9_-]{0,80}\.(pdf|docx?|xlsx?)$/;
const annexSizeMessage = `附件大小应为 1 到 ${ANNEX_SIZE_MAX_MB} 之间的整数（MB）`;

/** One attachment type as a developer saves it (§3 attachment type); `template` is a template file name. */
export const attachmentTypeInputSchema = z.object({
  annexNo: z
    .string({ message: '请填写附件编号' })
    .trim()
    .min(1, '请填写附件编号')
    .max(63, '附件编号最多 63 个字符')
    .regex(/^[A-Za-z0-9_]+$/, '附件编号只能包含字母、数字和下划线'),
  annexName: z
    .string({ message: '请填写附件名称' })
    .trim()
    .min(1, '请填写附件名称')
    .max(100, '附件名称最多 100 个字符'),
  annexFormat: z
    .string({ message: '请选择附件格式' })
    .max(200, '附件格式过长')
    .superRefine((v, ctx) => {
      const list = parseFormats(v);
      if (!list.length) ctx.addIssue({ code: 'custom', message: '请选择附件格式' });
      const bad = list.filter((f) => !(KNOWN_FORMATS as readonly string[]).includes(f));
      if (bad.length)
        ctx.addIssue({
          code: 'custom',
          message: `不支持的格式：${bad.join('、')}（可选：${KNOWN_FORMATS.join('、')}）`,
        });
    })
    .transform((v) => parseFormats(v).join(',')),
  annexSize: z
    .number({ message: annexSizeMessage })
    .int(annexSizeMessage)
    .min(1, annexSizeMessage)
    .max(ANNEX_SIZE_MAX_MB, annexSizeMessage),
  isRequired: z.boolean({ message: '是否必填应为是或否' }),
  fileType: z.string({ message: '文件类别应为文本' }).trim().max(40, '文件类别最多 40 个字符'),
  template: z.string().regex(TEMPLATE_NAME, '模板不存在').nullish(),
});
export type AttachmentTypeInput = z.input<typeof attachmentTypeInputSchema>;

/** A node's whole list of attachment types (developers); the order is the order of display. */
export const saveAttachmentTypesSchema = z.object({
  gnCoding,
  list: z
    .array(attachmentTypeInputSchema, { message: '附件类型列表有误' })
    .max(MAX_ATTACHMENT_TYPES, `附件类型最多 ${MAX_ATTACHMENT_TYPES} 个`)
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((t, i) => {
        const key = t.annexNo.toLowerCase();
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'annexNo'], message: '附件编号不能重复' });
        seen.add(key);
      });
    }),
});

export const fileRefSchema = z.object({ fileId: uuid() });
export const fileDownloadQuerySchema = z.object({
  fileId: uuid(),
  /** 1: inline (previews); the default is a download */
  inline: z.enum(['0', '1']).optional(),
  /** expiry (unix seconds) and signature of a preview address */
  exp: z
    .string()
    .regex(/^\d{1,12}$/)
    .optional(),
  sig: z
    .string()
    .regex(/^[A-Za-z0-9_-]{20,100}$/)
    .optional(),
});
export const previewUrlSchema = z.object({ url: z.string(), expiresAt: z.string() });
export const templateQuerySchema = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,80}\.(pdf|docx?|xlsx?)$/, '模板不存在'),
});

export const filesApi = {
  attachmentUpload: {
    ...paths.attachmentUpload,
    summary: '上传附件（multipart：dxCode、gnCoding、systemCoding、file）；内容按文件头校验',
    tag: '文件',
    auth: true,
    form: attachmentUploadFormSchema,
    data: uploadedFileSchema,
  },
  smallUpload: {
    ...paths.smallUpload,
    summary: '小文件上传（multipart：fileType、gnCoding、systemCoding、fileNo、file），5 MB 以内一次上传',
    tag: '文件',
    auth: true,
    form: smallUploadFormSchema,
    data: uploadedFileSchema,
  },
  batchUpload: {
    ...paths.batchUpload,
    summary: '批量上传（multipart：gnCoding、systemCoding、dxCode、maxCount，多个 file）；任一失败则全部不保存',
    tag: '文件',
    auth: true,
    form: batchUploadFormSchema,
    data: z.array(uploadedFileSchema),
  },
  uploadNotice: {
    ...paths.uploadNotice,
    summary: '上传公告附件（管理员及被授予门户公告新增或编辑权限的用户；multipart file）；公开地址',
    tag: '文件',
    auth: true,
    form: noticeUploadFormSchema,
    data: uploadedFileSchema,
  },
  fileAttachment: {
    ...paths.fileAttachment,
    summary: '记录的附件操作：add 关联新上传的文件，del 删除，空串不变（§4）；管理员只读',
    tag: '文件',
    auth: true,
    body: fileAttachmentSchema,
    data: z.array(annexSchema),
  },
  attachmentList: {
    ...paths.attachmentList,
    summary: '记录的附件（按附件类型；必填类型无文件时 url 为空）',
    tag: '文件',
    auth: true,
    query: recordFilesQuerySchema,
    data: z.array(annexSchema),
  },
  attachmentDelete: {
    ...paths.attachmentDelete,
    summary: '删除自己（本企业）尚未关联记录、或所属记录可编辑的文件',
    tag: '文件',
    auth: true,
    body: fileRefSchema,
    data: z.null(),
  },
  fjList: {
    ...paths.fjList,
    summary: '记录的文件列表（gnCoding、id）',
    tag: '文件',
    auth: true,
    query: recordFilesQuerySchema,
    data: z.array(uploadedFileSchema),
  },
  attDescription: {
    ...paths.attDescription,
    summary: '节点的附件类型与模板（annexName、annexNo、annexFormat、annexSize、isRequired、fileType）',
    tag: '文件',
    auth: true,
    query: attDescriptionQuerySchema,
    data: attDescriptionSchema,
  },
  saveAttachmentTypes: {
    ...paths.saveAttachmentTypes,
    summary: '保存节点的附件类型（开发者；整表替换，顺序即显示顺序；已上传的文件保留）',
    tag: '文件',
    auth: true,
    body: saveAttachmentTypesSchema,
    data: attDescriptionSchema,
  },
  attTemplate: {
    ...paths.attTemplate,
    summary: '下载附件模板（公开）',
    tag: '文件',
    auth: false,
    query: templateQuerySchema,
    binary: true,
    data: z.unknown(),
  },
  fileDownload: {
    ...paths.fileDownload,
    summary:
      '下载或预览文件（Bearer 令牌或预览签名；Range 206；文件名 RFC 5987）；本人、本企业、管理员与所属记录的审核人可下载',
    tag: '文件',
    auth: false,
    query: fileDownloadQuerySchema,
    binary: true,
    data: z.unknown(),
  },
  filePreviewUrl: {
    ...paths.filePreviewUrl,
    summary: '文件的预览地址（10 分钟有效，可用于 img / iframe / video）',
    tag: '文件',
    auth: true,
    query: fileRefSchema,
    data: previewUrlSchema,
  },
  uploadTask: {
    ...paths.uploadTask,
    summary:
      '分片上传任务：返回 uploadId 与尚缺分片（uploadUrlList）；同 md5 的本企业（本人）文件直接完成（秒传）；分片齐全时直接合并',
    tag: '文件',
    auth: true,
    body: uploadTaskSchema,
    data: uploadTaskResultSchema,
  },
  chunkUpload: {
    ...paths.chunkUpload,
    summary: '上传一个分片（multipart：chunk 从 0 开始、uploadId、md5 为整个文件的、file），返回进度',
    tag: '文件',
    auth: true,
    form: chunkUploadFormSchema,
    data: chunkUploadResultSchema,
  },
  fileMerge: {
    ...paths.fileMerge,
    summary: '合并分片：校验整个文件的 md5 与文件头，不符则拒绝且不保留任何内容',
    tag: '文件',
    auth: true,
    body: fileMergeSchema,
    data: uploadedFileSchema,
  },
  uploadCancel: {
    ...paths.uploadCancel,
    summary: '取消分片上传并释放已传分片；总是成功',
    tag: '文件',
    auth: true,
    body: uploadCancelSchema,
    data: z.null(),
  },
  uploadParts: {
    ...paths.uploadParts,
    summary: '分片上传任务已保存的分片',
    tag: '文件',
    auth: true,
    query: uploadPartsQuerySchema,
    data: uploadPartsSchema,
  },
} as const;
