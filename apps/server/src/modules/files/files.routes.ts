import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import multipart, { type MultipartFile } from '@fastify/multipart';
import {
  api,
  attachmentUploadFormSchema,
  batchUploadFormSchema,
  chunkUploadFormSchema,
  DEFAULT_MAX_FILES,
  EDITOR_UPLOAD_FIELD,
  EDITOR_UPLOAD_PATH,
  type EndpointDef,
  fileDownloadQuerySchema,
  IMAGE_EXTENSIONS,
  NOTICE_EXTENSIONS,
  noticeUploadFormSchema,
  smallUploadFormSchema,
  templateQuerySchema,
  tooManyFilesMessage,
  UPLOAD_CHUNK_SIZE,
  UPLOAD_EXTENSIONS,
  UploadMsg,
} from '@ks/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ok } from '../../platform/envelope';
import { AppError, badRequest, forbidden, notFound, parse, unauthorized } from '../../platform/errors';
import { route } from '../../platform/route';
import type { AuthContext, AuthService } from '../auth/auth.service';
import { callerOf, canReadFile, type FileCaller } from './access';
import { saveAttachmentTypes, TEMPLATES_DIR } from './attachment-types.service';
import * as chunked from './chunked.service';
import { sendStored } from './download';
import * as repo from './files.repo';
import type { FilesDeps } from './files.service';
import * as svc from './files.service';
import { discard, readForm, type Spooled, spool, sweepSpool, unexpectedFile } from './multipart';

const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Files: attachments and their types, chunked uploads, downloads and previews, the editor's image upload
 * (spec §7 File, upload). Multipart calls stream: files go to a spool file (single-request uploads) or straight into
 * the store (chunks); no whole file is ever held in memory.
 */
export function filesRoutes(app: FastifyInstance, deps: FilesDeps & { auth: AuthService }) {
  app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: true });
    registerRoutes(scope, deps);
  });

  let timer: NodeJS.Timeout | null = null;
  const sweepAll = async () => {
    try {
      await chunked.sweep(deps);
      await svc.sweepOrphans(deps);
      await sweepSpool(deps.spoolDir, 24 * 3600_000, deps.now().getTime());
    } catch (e) {
      app.log.warn({ err: e }, 'file sweep failed');
    }
  };
  app.addHook('onReady', async () => {
    const h = await deps.storage.health();
    if (!h.ok) app.log.warn({ storage: h.message }, 'file storage is not available');
    timer = setInterval(sweepAll, SWEEP_EVERY_MS);
    timer.unref();
    setImmediate(sweepAll);
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}

type FormHandler<T> = (ctx: { req: FastifyRequest; reply: FastifyReply; auth: AuthContext }) => Promise<T>;

/** A multipart endpoint of the registry: role check before anything is read, the answer in the envelope. */
function formRoute<D extends EndpointDef>(
  app: FastifyInstance,
  def: D,
  handler: FormHandler<z.infer<D['data']>>,
  opts: { roles?: string[]; message?: string; guard?: (auth: AuthContext) => Promise<unknown> } = {},
) {
  app.route({
    method: def.method,
    url: def.path,
    config: { public: !def.auth },
    handler: async (req, reply) => {
      if (!req.auth) throw unauthorized();
      if (opts.roles && !opts.roles.includes(req.auth.user.loginRoleType)) throw forbidden();
      if (opts.guard) await opts.guard(req.auth);
      const data = await handler({ req, reply, auth: req.auth });
      return ok(data, opts.message ?? UploadMsg.DONE);
    },
  });
}

/** Spool the parts named `field` of a request (up to `files`), with the text fields; the caller discards the spools. */
async function spoolForm(req: FastifyRequest, deps: FilesDeps, field: string | string[], files: number) {
  const names = Array.isArray(field) ? field : [field];
  const spooled: { spooled: Spooled; rawName: string }[] = [];
  try {
    const { fields } = await readForm(req, { fileSize: deps.uploadMaxBytes, files }, async (part: MultipartFile) => {
      if (!names.includes(part.fieldname)) return unexpectedFile(part);
      const s = await spool(part.file, deps.spoolDir, {
        max: deps.uploadMaxBytes,
        tooLarge: svc.oversize(deps.uploadMaxBytes),
      });
      // browsers send a quote in a file name as %22 (WHATWG form encoding)
      spooled.push({ spooled: s, rawName: (part.filename ?? '').replace(/%22/g, '"') });
    });
    return { fields, spooled };
  } catch (e) {
    await Promise.all(spooled.map((s) => discard(s.spooled)));
    throw e;
  }
}

function registerRoutes(app: FastifyInstance, deps: FilesDeps & { auth: AuthService }) {
  const me = (auth: AuthContext) => callerOf(auth);

  /** One file from a form: check, store, answer; the spool is always removed. */
  async function single(
    req: FastifyRequest,
    c: FileCaller,
    read: (fields: Record<string, string>) => Promise<Omit<svc.AcceptInput, 'rawName' | 'spooled'>>,
  ) {
    const { fields, spooled } = await spoolForm(req, deps, 'file', 1);
    try {
      const first = spooled[0];
      const input = await read(fields);
      if (!first) throw badRequest(UploadMsg.NO_FILE);
      const u = { ...input, rawName: first.rawName, spooled: first.spooled };
      const checked = await svc.checkUpload(deps, u);
      const [out] = await svc.storeUploads(deps, c, [{ ...u, ...checked }]);
      return out!;
    } finally {
      await Promise.all(spooled.map((s) => discard(s.spooled)));
    }
  }

  formRoute(app, api.attachmentUpload, async ({ req, auth }) => {
    const c = me(auth);
    return single(req, c, async (fields) => {
      const f = parse(attachmentUploadFormSchema, fields);
      await svc.requireUploadNode(deps, c, f.gnCoding);
      return {
        gnCoding: f.gnCoding,
        annexNo: f.dxCode ?? null,
        allowed: UPLOAD_EXTENSIONS,
        visibility: 'private',
        source: 'attachment',
      };
    });
  });

  formRoute(app, api.smallUpload, async ({ req, auth }) => {
    const c = me(auth);
    return single(req, c, async (fields) => {
      const f = parse(smallUploadFormSchema, fields);
      if (f.fileNo && !f.gnCoding) throw badRequest('指定附件类型（fileNo）时须提供 gnCoding');
      await svc.requireUploadNode(deps, c, f.gnCoding);
      return {
        gnCoding: f.gnCoding ?? null,
        annexNo: f.fileNo ?? null,
        fileType: f.fileType ?? null,
        allowed: UPLOAD_EXTENSIONS,
        visibility: 'private',
        source: 'small',
      };
    });
  });

  formRoute(
    app,
    api.uploadNotice,
    async ({ req, auth }) =>
      single(req, me(auth), async (fields) => {
        parse(noticeUploadFormSchema, fields);
        return { allowed: NOTICE_EXTENSIONS, visibility: 'public', source: 'notice' };
      }),
    // whoever may write notices: administrators, and those granted 新增 or 编辑 on the notice node
    { guard: (auth) => svc.requireNoticeWriter(deps, me(auth)) },
  );

  formRoute(app, api.batchUpload, async ({ req, auth }) => {
    const c = me(auth);
    const { fields, spooled } = await spoolForm(req, deps, ['file', 'files'], 10);
    try {
      const f = parse(batchUploadFormSchema, fields);
      await svc.requireUploadNode(deps, c, f.gnCoding);
      if (!spooled.length) throw badRequest(UploadMsg.NO_FILE);
      const max = f.maxCount ?? DEFAULT_MAX_FILES;
      if (spooled.length > max) throw badRequest(tooManyFilesMessage(max));
      const uploads = [];
      for (const s of spooled) {
        const u: svc.AcceptInput = {
          rawName: s.rawName,
          spooled: s.spooled,
          gnCoding: f.gnCoding,
          annexNo: f.dxCode ?? null,
          allowed: UPLOAD_EXTENSIONS,
          visibility: 'private',
          source: 'batch',
        };
        uploads.push({ ...u, ...(await svc.checkUpload(deps, u)) });
      }
      return await svc.storeUploads(deps, c, uploads);
    } finally {
      await Promise.all(spooled.map((s) => discard(s.spooled)));
    }
  });

  route(app, api.fileAttachment, async ({ auth, body }) => svc.applyAttachmentOps(deps, me(auth), body), {
    message: '保存成功',
  });
  route(app, api.attachmentList, async ({ auth, query }) =>
    svc.attachmentList(deps, me(auth), query.gnCoding, query.id),
  );
  route(app, api.fjList, async ({ auth, query }) => svc.fjList(deps, me(auth), query.gnCoding, query.id));
  route(app, api.attDescription, async ({ auth, query }) => svc.attDescription(deps, me(auth), query.gnCoding));
  route(
    app,
    api.saveAttachmentTypes,
    async ({ auth, body }) =>
      saveAttachmentTypes(deps.db, auth.actor, body, Math.floor(deps.chunkedMaxBytes / 1024 ** 2)),
    {
      roles: ['D'],
      message: '保存成功',
    },
  );
  route(
    app,
    api.attachmentDelete,
    async ({ auth, body }) => {
      await svc.deleteFile(deps, me(auth), body.fileId);
      return null;
    },
    { message: '删除成功' },
  );
  route(app, api.filePreviewUrl, async ({ auth, query }) => svc.previewUrl(deps, me(auth), query.fileId));

  // ---- chunked ----
  route(app, api.uploadTask, async ({ auth, body }) => chunked.uploadTask(deps, me(auth), body));
  formRoute(app, api.chunkUpload, async ({ req, auth }) => {
    const c = me(auth);
    let result: Awaited<ReturnType<typeof chunked.putChunk>> | null = null;
    let spooledChunk: Spooled | null = null;
    try {
      const { fields } = await readForm(
        req,
        { fileSize: UPLOAD_CHUNK_SIZE, files: 1 },
        async (part: MultipartFile, before) => {
          if (part.fieldname !== 'file') return unexpectedFile(part);
          const ready = chunkUploadFormSchema.safeParse(before);
          if (ready.success) {
            // the fields came first (as documented): the chunk streams straight into the store
            const t = await chunked.checkChunkTarget(deps, c, ready.data);
            result = await chunked.putChunk(deps, t, ready.data.chunk, part.file);
          } else {
            spooledChunk = await spool(part.file, deps.spoolDir, {
              max: UPLOAD_CHUNK_SIZE,
              tooLarge: UploadMsg.CHUNK_SIZE,
            });
          }
        },
      );
      if (result) return result;
      const f = parse(chunkUploadFormSchema, fields);
      const s = spooledChunk as Spooled | null;
      if (!s) throw badRequest(UploadMsg.NO_FILE);
      const t = await chunked.checkChunkTarget(deps, c, f);
      return await chunked.putChunk(deps, t, f.chunk, createReadStream(s.path));
    } finally {
      await discard(spooledChunk);
    }
  });
  route(app, api.fileMerge, async ({ auth, body }) => chunked.merge(deps, me(auth), body));
  route(
    app,
    api.uploadCancel,
    async ({ auth, body }) => {
      await chunked.cancel(deps, me(auth), body.uploadId);
      return null;
    },
    { message: UploadMsg.CANCELLED },
  );
  route(app, api.uploadParts, async ({ auth, query }) => chunked.taskParts(deps, me(auth), query.uploadId));

  // ---- download: bearer token, a signed preview address, or a public file ----
  // The same address may end with the file's name (/download/营业执照.pdf?…): a browser's PDF viewer titles the
  // document after the address's last segment. The segment names nothing: the file is the query's fileId.
  const download = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = parse(fileDownloadQuerySchema, req.query);
    const f = await repo.fileById(deps.db, q.fileId);
    if (q.sig || q.exp) {
      if (!f || !q.sig || !q.exp || !(await svc.verifyPreview(deps, f.id, q.exp, q.sig))) {
        throw forbidden('预览地址已失效，请重新打开');
      }
      return sendStored(req, reply, deps.storage, f, {
        inline: q.inline !== '0',
        cacheControl: 'private, max-age=600',
      });
    }
    if (f?.visibility === 'public') {
      return sendStored(req, reply, deps.storage, f, {
        inline: q.inline !== '0',
        cacheControl: 'public, max-age=86400',
      });
    }
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
    const auth = await deps.auth.authenticate(token || null, req.ip);
    if (!f || !(await canReadFile(deps.db, callerOf(auth), f))) throw notFound('文件不存在');
    return sendStored(req, reply, deps.storage, f, { inline: q.inline === '1', cacheControl: 'private, no-cache' });
  };
  app.route({ method: 'GET', url: api.fileDownload.path, config: { public: true }, handler: download });
  app.route({ method: 'GET', url: `${api.fileDownload.path}/*`, config: { public: true }, handler: download });

  // ---- templates: public, whitelisted by name and by the attachment types that name them ----
  app.route({
    method: 'GET',
    url: api.attTemplate.path,
    config: { public: true },
    handler: async (req, reply) => {
      const { name } = parse(templateQuerySchema, req.query);
      const file = path.join(TEMPLATES_DIR, name);
      if (path.dirname(file) !== TEMPLATES_DIR || !existsSync(file) || !(await repo.templateExists(deps.db, name))) {
        throw notFound('模板不存在');
      }
      const ext = path.extname(name).slice(1);
      reply.header('Content-Disposition', `attachment; filename="${name}"`);
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Cache-Control', 'public, max-age=3600');
      return reply.type(ext === 'pdf' ? 'application/pdf' : 'application/octet-stream').send(createReadStream(file));
    },
  });

  // ---- the rich-text editor's image upload (screen 12): wangEditor's answer shape, outside the envelope ----
  app.route({
    method: 'POST',
    url: EDITOR_UPLOAD_PATH,
    config: { public: true },
    handler: async (req, reply) => {
      try {
        const header = req.headers.authorization;
        const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
        const c = callerOf(await deps.auth.authenticate(token || null, req.ip));
        const { spooled } = await spoolForm(req, deps, EDITOR_UPLOAD_FIELD, 1);
        try {
          const first = spooled[0];
          if (!first) throw badRequest(UploadMsg.NO_FILE);
          const u: svc.AcceptInput = {
            rawName: first.rawName,
            spooled: first.spooled,
            allowed: IMAGE_EXTENSIONS,
            visibility: 'public',
            source: 'editor',
          };
          const [f] = await svc.storeUploads(deps, c, [{ ...u, ...(await svc.checkUpload(deps, u)) }]);
          return { errno: 0, data: { url: f!.url, alt: f!.fileName, href: '' } };
        } finally {
          await Promise.all(spooled.map((s) => discard(s.spooled)));
        }
      } catch (e) {
        const err = e as AppError & { statusCode?: number };
        const status = e instanceof AppError ? err.httpStatus : (err.statusCode ?? 500);
        if (status >= 500) req.log.error({ err: e }, 'editor upload failed');
        return reply.code(status).send({
          errno: 1,
          message: e instanceof AppError ? err.message : status === 413 ? '上传内容过大' : UploadMsg.FAILED,
        });
      }
    },
  });
}
