import multipart from '@fastify/multipart';
import { api, COST_FILE_MAX_BYTES, COST_MSG, type CostAnalysis } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../platform/errors';
import { route } from '../../platform/route';
import { payloadTooLarge } from '../files/multipart';
import { CostParseError, parseCostXml } from './cost.parse';

const MB = COST_FILE_MAX_BYTES / 1024 / 1024;
const fileError = (message: string) => badRequest(message, { fieldErrors: { file: [message] } });

/**
 * 造价文件 (issue 18). `/ks/analyse/xml_analysis`: the uploaded cost XML streams through the reader as it arrives (a
 * 200 MB file is never held) and the answer is its tree, or the reader's error naming the line (400).
 */
export async function costRoutes(app: FastifyInstance) {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: COST_FILE_MAX_BYTES, files: 1, fields: 5 } });
    route(
      scope,
      api.costXmlAnalysis,
      async ({ req }): Promise<CostAnalysis> => {
        if (!req.isMultipart()) throw badRequest('请使用 multipart/form-data 上传造价文件');
        const file = await req.file();
        if (!file) throw fileError(COST_MSG.emptyFile);
        if (!/\.xml$/i.test(file.filename)) {
          file.file.resume();
          throw fileError(COST_MSG.wrongType);
        }
        try {
          const r = await parseCostXml(file.file);
          if (file.file.truncated) throw payloadTooLarge(COST_MSG.tooLarge(MB));
          return {
            fileName: file.filename,
            format: 'xml',
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
          if (e instanceof CostParseError) throw fileError(e.message);
          throw e;
        }
      },
      { message: '解析完成', rateLimit: { max: 30, timeWindow: '1 minute' } },
    );
  });
}
