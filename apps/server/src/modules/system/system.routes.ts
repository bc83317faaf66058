import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { route } from '../../platform/route';
import { enabledSystems } from './system.repo';

export function systemRoutes(app: FastifyInstance, db: Db) {
  // Every signed-in user may enter every enabled system until per-system permissions exist (configurable shell).
  route(app, api.systemList, async () =>
    (await enabledSystems(db)).map((s) => ({
      systemName: s.systemName,
      systemCoding: s.gnCoding,
      title: s.title,
      todoCount: 0,
    })),
  );
}
