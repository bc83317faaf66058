import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { route } from '../../platform/route';
import { performanceById, performanceList } from './performance';

/** 企业业绩 (issue 19): public reads of passed performances (the market detail page's data). */
export function performanceRoutes(app: FastifyInstance, db: Db) {
  route(app, api.performanceList, async ({ body }) => performanceList(db, body), {
    rateLimit: { max: 120, timeWindow: '1 minute' },
  });
  route(app, api.performance, async ({ body }) => performanceById(db, body.id), {
    rateLimit: { max: 120, timeWindow: '1 minute' },
  });
}
