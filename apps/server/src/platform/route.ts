import type { EndpointDef } from '@ks/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../db/client';
import type { AuthContext } from '../modules/auth/auth.service';
import { ok } from './envelope';
import { forbidden, parse, unauthorized } from './errors';
import type { Actor } from './oplog';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No token needed. */
    public?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface HandlerCtx<D extends EndpointDef> {
  req: FastifyRequest;
  reply: FastifyReply;
  body: Infer<D['body']>;
  query: Infer<D['query']>;
  /** The signed-in caller; present on every route whose contract says auth: true. */
  auth: D['auth'] extends true ? AuthContext : AuthContext | null;
}

/**
 * Register one endpoint of the contract registry: parse its body and query with the contract,
 * call the handler, answer the success envelope. Routes stay thin; rules live in services.
 */
export function route<D extends EndpointDef>(
  app: FastifyInstance,
  def: D,
  handler: (ctx: HandlerCtx<D>) => Promise<z.infer<D['data']>>,
  opts: {
    /** the success message; a function of the caller when it depends on who asked */
    message?: string | ((auth: AuthContext | null) => string);
    rateLimit?: { max: number; timeWindow: string | number };
    /** login role types allowed (M admin, D developer, U user); checked before the input is read */
    roles?: string[];
    /** further checks of the caller (function permissions), run before the input is read */
    guard?: (auth: AuthContext, req: FastifyRequest) => Promise<unknown>;
  } = {},
) {
  app.route({
    method: def.method,
    url: def.path,
    config: { public: !def.auth, ...(opts.rateLimit ? { rateLimit: opts.rateLimit } : {}) },
    handler: async (req, reply) => {
      if (def.auth && !req.auth) throw unauthorized();
      if (opts.roles && !opts.roles.includes(req.auth?.user.loginRoleType ?? '')) throw forbidden();
      if (opts.guard) {
        if (!req.auth) throw unauthorized();
        await opts.guard(req.auth, req);
      }
      const body = (def.body ? parse(def.body, req.body) : undefined) as Infer<D['body']>;
      const query = (def.query ? parse(def.query, req.query) : undefined) as Infer<D['query']>;
      const data = await handler({ req, reply, body, query, auth: req.auth as HandlerCtx<D>['auth'] });
      const message = typeof opts.message === 'function' ? opts.message(req.auth) : opts.message;
      return ok(data ?? null, message);
    },
  });
}

/**
 * The options of a route that changes something: the login role types that may call it and what its answer says
 * (保存成功 unless told).
 */
export const changedBy = (roles: string[], message = '保存成功') => ({ roles, message });

/** A handler that hands the database, the caller (as the actor of the change) and the body to a service call. */
export const withActor =
  <B, R>(db: Db, call: (db: Db, actor: Actor, body: B) => Promise<R>) =>
  ({ auth, body }: { auth: AuthContext | null; body: B }): Promise<R> => {
    if (!auth) throw unauthorized();
    return call(db, auth.actor, body);
  };

/** A handler that hands the database, the signed-in caller and the body to a service call. */
export const withAuth =
  <B, R>(db: Db, call: (db: Db, auth: AuthContext, body: B) => Promise<R>) =>
  ({ auth, body }: { auth: AuthContext | null; body: B }): Promise<R> => {
    if (!auth) throw unauthorized();
    return call(db, auth, body);
  };

/** A handler that deletes what the query's `id` names, as the caller; the answer carries no data (null). */
export const removeById =
  (db: Db, call: (db: Db, actor: Actor, id: string) => Promise<unknown>) =>
  async ({ auth, query }: { auth: AuthContext | null; query: { id: string } }): Promise<null> => {
    if (!auth) throw unauthorized();
    await call(db, auth.actor, query.id);
    return null;
  };
