import multipart from '@fastify/multipart';
import {
  api,
  COST_DETECT_MSG,
  COST_FILE_MAX_BYTES,
  COST_MSG,
  type CostAnalysis,
  costUploadFieldsSchema,
} from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest, validationFailed } from '../../platform/errors';
import { route } from '../../platform/route';
import { callerOf } from '../evaluation/evaluation.deps';
import { discard, payloadTooLarge, readForm, type Spooled, spool } from '../files/multipart';
import { CostParseError } from './cost.parse';
import { costFormatOf, parseCost } from './cost.read';
import * as svc from './cost.service';

const MB = COST_FILE_MAX_BYTES / 1024 / 1024;
const fileError = (message: string) => badRequest(message, { fieldErrors: { file: [message] } });
const ANY = ['M', 'D', 'U'];

/** A cost-file fault as the client's 400 (the reader names the line); anything else stays what it is. */
function asClientError(e: unknown): never {
  if (e instanceof CostParseError) throw fileError(e.message);
  throw e;
}

/**
 * 造价文件 (issue 18). `/ks/analyse/xml_analysis`: the uploaded cost XML streams through the reader as it arrives (a
 * 200 MB file is never held) and the answer is its tree, or the reader's error naming the line (400) — for anyone
 * signed in (a bidder checks its file before it bids). `/ks/file/*`: the centre's detection (cost.service.ts).
 */
export async function costRoutes(app: FastifyInstance, deps: svc.CostDeps & { spoolDir: string }) {
  route(app, api.costDirectories, async ({ auth, body }) => svc.directories(deps, callerOf(auth), body), {
    roles: ANY,
  });
  route(app, api.costStatus, async ({ auth, body }) => svc.status(deps, callerOf(auth), body.sectionId), {
    roles: ANY,
  });
  route(app, api.costDetection, async ({ auth, body }) => svc.start(deps, callerOf(auth), body.sectionId), {
    roles: ANY,
    message: COST_DETECT_MSG.started,
  });
  route(app, api.costAchievement, async ({ auth, body }) => svc.achievement(deps, callerOf(auth), body.sectionId), {
    roles: ANY,
  });
  route(app, api.costScore, async ({ auth, body }) => svc.score(deps, callerOf(auth), body.sectionId), {
    roles: ANY,
  });
  route(app, api.costSettings, async ({ auth }) => svc.settingsOf(deps, callerOf(auth)), { roles: ANY });
  route(app, api.costSettingsSave, async ({ auth, body }) => svc.saveSettings(deps, callerOf(auth), body), {
    roles: ANY,
    message: '保存成功',
  });
  route(app, api.costPublicity, async ({ auth, body }) => svc.publicity(deps, callerOf(auth), body), {
    roles: ANY,
    message: '操作成功',
  });
  route(
    app,
    api.costPublicitySummary,
    async ({ auth, body }) => svc.publicitySummary(deps, callerOf(auth), body.sectionId),
    { roles: ANY },
  );
  route(app, api.costParseData, async ({ auth, body }) => svc.parseData(deps, callerOf(auth), body.id), {
    roles: ANY,
  });

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: COST_FILE_MAX_BYTES, files: 1, fields: 5 } });
    route(
      scope,
      api.costXmlAnalysis,
      async ({ req }): Promise<CostAnalysis> => {
        if (!req.isMultipart()) throw badRequest('请使用 multipart/form-data 上传造价文件');
        const file = await req.file();
        if (!file) throw fileError(COST_MSG.emptyFile);
        const format = costFormatOf(file.filename);
        if (!format) {
          file.file.resume();
          throw fileError(COST_MSG.wrongType);
        }
        try {
          const r = await parseCost(file.file, format);
          if (file.file.truncated) throw payloadTooLarge(COST_MSG.tooLarge(MB));
          return {
            fileName: file.filename,
            format,
            size: r.size,
            sha256: r.sha256,
            standard: r.standard,
            meta: r.meta,
            controlPrice: r.controlPrice,
            bidPrice: r.bidPrice,
            bidder: r.bidder,
            lineCount: r.lineCount,
            tree: r.tree,
          };
        } catch (e) {
          if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' || file.file.truncated) {
            throw payloadTooLarge(COST_MSG.tooLarge(MB));
          }
          return asClientError(e);
        }
      },
      { message: '解析完成', rateLimit: { max: 30, timeWindow: '1 minute' } },
    );
  });

  await app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: true });
    route(
      scope,
      api.costUpload,
      async ({ req, auth }) => {
        const c = callerOf(auth);
        // who may upload, before anything is read
        svc.requireManager(c);
        let spooled: Spooled | null = null;
        let fileName = '';
        try {
          const { fields } = await readForm(req, { fileSize: COST_FILE_MAX_BYTES, files: 1 }, async (part) => {
            fileName = part.filename;
            if (!costFormatOf(part.filename)) {
              part.file.resume();
              throw fileError(COST_MSG.wrongType);
            }
            spooled = await spool(part.file, deps.spoolDir, {
              max: COST_FILE_MAX_BYTES,
              tooLarge: COST_MSG.tooLarge(MB),
            });
          });
          const parsed = costUploadFieldsSchema.safeParse(fields);
          if (!parsed.success) {
            throw validationFailed(z.flattenError(parsed.error).fieldErrors as Record<string, string[]>);
          }
          if (!spooled) throw fileError(COST_MSG.emptyFile);
          return await svc.upload(deps, c, { ...parsed.data, fileName, spooled });
        } catch (e) {
          return asClientError(e);
        } finally {
          await discard(spooled);
        }
      },
      { roles: ANY, message: '上传成功', rateLimit: { max: 30, timeWindow: '1 minute' } },
    );
  });
}
