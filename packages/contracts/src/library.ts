import { VIDEO_EXTENSIONS } from './files-rules';
import { z } from './zod';

/**
 * 资料库 (issue 19): the product centre's downloads — client tools (客户端工具), manuals (操作手册) and videos (操作视频) —
 * and the standard files (标准文件: tender document templates, commitment letters …), all versioned. An item is one
 * version of a series (the document it is a version of); one version of a series is the current one. Administrators
 * upload (chunked upload, usage `library`) and keep them; everyone signed in lists, searches and downloads.
 */

export const LIBRARY_KINDS = ['tool', 'manual', 'video', 'template'] as const;
export type LibraryKind = (typeof LIBRARY_KINDS)[number];
export const LIBRARY_KIND_LABELS: Record<LibraryKind, string> = {
  tool: '客户端工具',
  manual: '操作手册',
  video: '操作视频',
  template: '标准文件',
};

/** The files module's node code of library files (gn_coding of their file rows; record id: the library item). */
export const LIBRARY_FILE_NODE = 'KS_LIBRARY';

/** Formats of tools, manuals and templates. */
export const LIBRARY_DOC_EXTENSIONS = ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'zip', 'rar', '7z', 'exe', 'msi'] as const;
/** Every format a library upload (chunked, usage library) accepts: documents and archives, and the videos. */
export const LIBRARY_UPLOAD_EXTENSIONS = [...LIBRARY_DOC_EXTENSIONS, ...VIDEO_EXTENSIONS] as const;
/** The formats of one kind's files. */
export const libraryExtensionsOf = (kind: LibraryKind): readonly string[] =>
  kind === 'video' ? VIDEO_EXTENSIONS : LIBRARY_DOC_EXTENSIONS;

/** The series of the credit commitment book's template (信用承诺书), shown on /credit/commitmentbook. */
export const COMMITMENT_TEMPLATE_SERIES = '信用承诺书';

export const LIBRARY_MSG = {
  noFile: '请先上传资料文件',
  fileBound: '该文件已在资料库中',
  badFormat: (kind: LibraryKind) => `${LIBRARY_KIND_LABELS[kind]}只能是 ${libraryExtensionsOf(kind).join('、')} 格式`,
  versionTaken: (series: string, version: string) => `「${series}」已有版本 ${version}，请更换版本号`,
  notFound: '资料不存在',
  busy: '该资料正在被其他操作修改，请稍后重试',
} as const;

const text = (name: string, max: number) =>
  z
    .string({ error: `请填写${name}` })
    .trim()
    .min(1, `请填写${name}`)
    .max(max, `${name}最多 ${max} 个字符`);
const uuid = (message: string = LIBRARY_MSG.notFound) => z.string({ error: message }).uuid(message);
const kind = z.enum(LIBRARY_KINDS, { error: '资料类别不正确' });

/** A library item: one version of a series, its stored file and whether it is the series' current version. */
export const libraryItemSchema = z.object({
  id: z.string(),
  kind: z.enum(LIBRARY_KINDS),
  series: z.string(),
  title: z.string(),
  version: z.string(),
  description: z.string(),
  fileId: z.string(),
  fileName: z.string(),
  fileSize: z.number(),
  extension: z.string(),
  /** the download address (bearer token) */
  url: z.string(),
  current: z.boolean(),
  uploaderName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type LibraryItem = z.infer<typeof libraryItemSchema>;

/** List and search: kinds comma-separated (e.g. `tool,manual`), a keyword over title, series, version, description. */
export const libraryListQuerySchema = z.object({
  kinds: z
    .string()
    .trim()
    .max(60)
    .optional()
    .transform((v, ctx) => {
      const list = (v ?? '').split(',').filter(Boolean);
      for (const k of list) {
        if (!(LIBRARY_KINDS as readonly string[]).includes(k)) {
          ctx.addIssue({ code: 'custom', message: '资料类别不正确' });
          return z.NEVER;
        }
      }
      return list as LibraryKind[];
    }),
  series: z.string().trim().max(60).optional(),
  keyword: z.string().trim().max(60).optional(),
  /** only current versions */
  currentOnly: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
  pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});
export const libraryPageSchema = z.object({ records: z.array(libraryItemSchema), total: z.number().int() });
export type LibraryPage = z.infer<typeof libraryPageSchema>;

export const librarySeriesQuerySchema = z.object({ kind });
export const librarySeriesSchema = z.object({
  series: z.string(),
  versions: z.number().int(),
  currentVersion: z.string().nullable(),
});
export type LibrarySeries = z.infer<typeof librarySeriesSchema>;

export const libraryCurrentQuerySchema = z.object({ kind, series: text('资料系列', 60) });

/**
 * Adds an uploaded file (chunked upload, usage library, by an administrator) as a version of a series. The first
 * version of a series is current whatever `makeCurrent` says; a later one becomes current when `makeCurrent`.
 */
export const libraryAddSchema = z.object({
  kind,
  series: text('所属资料（系列）', 60),
  title: text('资料名称', 100),
  version: text('版本号', 30).regex(/^[0-9A-Za-z][0-9A-Za-z._-]*$/, '版本号只能由字母、数字、点、下划线和连字符组成'),
  description: z.string().trim().max(500, '说明最多 500 个字符').default(''),
  fileId: uuid('请先上传资料文件'),
  makeCurrent: z.boolean().default(false),
});
export const libraryUpdateSchema = z.object({
  id: uuid(),
  title: text('资料名称', 100),
  description: z.string().trim().max(500, '说明最多 500 个字符').default(''),
});
export const libraryIdSchema = z.object({ id: uuid() });
