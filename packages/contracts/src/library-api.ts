import {
  libraryAddSchema,
  libraryCurrentQuerySchema,
  libraryIdSchema,
  libraryItemSchema,
  libraryListQuerySchema,
  libraryPageSchema,
  librarySeriesQuerySchema,
  librarySeriesSchema,
  libraryUpdateSchema,
} from './library';
import { paths } from './paths';
import { z } from './zod';

const T = '资料库';

/**
 * Registry entries of the library (产品中心 and 标准文件, issue 19): reading for everyone signed in, changes for
 * administrators (403 otherwise).
 */
export const libraryApi = {
  libraryList: {
    ...paths.libraryList,
    summary: '资料列表与搜索（客户端工具、操作手册、操作视频、标准文件），分页',
    tag: T,
    auth: true,
    query: libraryListQuerySchema,
    data: libraryPageSchema,
  },
  librarySeries: {
    ...paths.librarySeries,
    summary: '一个类别的资料系列：版本数与当前版本',
    tag: T,
    auth: true,
    query: librarySeriesQuerySchema,
    data: z.array(librarySeriesSchema),
  },
  libraryCurrent: {
    ...paths.libraryCurrent,
    summary: '一个资料系列的当前版本（如信用承诺书范本），没有时为 null',
    tag: T,
    auth: true,
    query: libraryCurrentQuerySchema,
    data: libraryItemSchema.nullable(),
  },
  libraryAdd: {
    ...paths.libraryAdd,
    summary: '把已上传的文件（分片上传，usage=library）登记为资料的一个版本（管理员）；系列的第一个版本即为当前版本',
    tag: T,
    auth: true,
    body: libraryAddSchema,
    data: libraryItemSchema,
  },
  libraryUpdate: {
    ...paths.libraryUpdate,
    summary: '修改资料名称与说明（管理员）',
    tag: T,
    auth: true,
    body: libraryUpdateSchema,
    data: libraryItemSchema,
  },
  librarySetCurrent: {
    ...paths.librarySetCurrent,
    summary: '设为当前版本（管理员）：同一系列只有一个当前版本',
    tag: T,
    auth: true,
    body: libraryIdSchema,
    data: libraryItemSchema,
  },
  libraryDelete: {
    ...paths.libraryDelete,
    summary: '删除资料版本（管理员）；删除当前版本时，剩余最新的版本成为当前版本',
    tag: T,
    auth: true,
    body: libraryIdSchema,
    data: z.null(),
  },
} as const;
