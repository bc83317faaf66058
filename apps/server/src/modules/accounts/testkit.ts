import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { operationLogs } from '../../db/schema';
import { bearer, json, type TestApp } from '../../test/harness';

/** Helpers shared by the administration pages' integration tests (test-only module). */

// biome-ignore lint/suspicious/noExplicitAny: responses are read loosely in tests
export type Body = { code: number; data: any; message: string };

export function client(t: () => TestApp) {
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    token: string | null,
    payload?: unknown,
  ): Promise<{ res: LightMyRequestResponse; body: Body; status: number }> => {
    const res = await t().app.inject({
      method,
      url,
      headers: token ? bearer(token) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { res, body: json<Body>(res), status: res.statusCode };
  };
  return {
    call,
    get: (url: string, token: string | null) => call('GET', url, token),
    post: (url: string, token: string | null, payload: unknown) => call('POST', url, token, payload),
    put: (url: string, token: string | null, payload: unknown) => call('PUT', url, token, payload),
    del: (url: string, token: string | null) => call('DELETE', url, token),
  };
}

export const qs = (params: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();

/** Operation-log rows of one business and record. */
export async function opLogs(t: TestApp, glName: string, recordId: string) {
  return t.database.db
    .select()
    .from(operationLogs)
    .where(and(eq(operationLogs.glName, glName), eq(operationLogs.recordId, recordId)));
}
