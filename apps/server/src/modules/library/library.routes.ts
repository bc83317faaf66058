import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { changedBy, route, withActor } from '../../platform/route';
import * as library from './library.service';

const ADMIN = ['M'];

/** 资料库 (issue 19): product-centre downloads and standard files. Reading for everyone signed in, changes for M. */
export function libraryRoutes(app: FastifyInstance, db: Db) {
  route(app, api.libraryList, ({ query }) => library.list(db, { ...query, kinds: query.kinds ?? [] }));
  route(app, api.librarySeries, ({ query }) => library.series(db, query.kind));
  route(app, api.libraryCurrent, ({ query }) => library.current(db, query.kind, query.series));
  route(app, api.libraryAdd, withActor(db, library.add), changedBy(ADMIN, '上传成功'));
  route(app, api.libraryUpdate, withActor(db, library.update), changedBy(ADMIN));
  route(
    app,
    api.librarySetCurrent,
    withActor(db, (d, a, b: { id: string }) => library.setCurrent(d, a, b.id)),
    changedBy(ADMIN, '已设为当前版本'),
  );
  route(
    app,
    api.libraryDelete,
    withActor(db, async (d, a, b: { id: string }) => {
      await library.remove(d, a, b.id);
      return null;
    }),
    changedBy(ADMIN, '删除成功'),
  );
}
