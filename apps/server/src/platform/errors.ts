import { Code, Msg } from '@ks/contracts';
import { z } from 'zod';

// Validation messages the contracts do not word themselves come out in Chinese.
z.config(z.locales.zhCN());

/** An error the client caused or may act on; mapped to the envelope by the error handler. */
export class AppError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

export const badRequest = (message: string = Msg.BAD_REQUEST, data: unknown = null) =>
  new AppError(400, Code.BAD_REQUEST, message, data);
export const validationFailed = (fieldErrors: Record<string, string[]>, message?: string) =>
  new AppError(400, Code.BAD_REQUEST, message ?? firstMessage(fieldErrors) ?? Msg.BAD_REQUEST, { fieldErrors });
export const unauthorized = (code: number = Code.UNAUTHORIZED, message: string = Msg.NOT_SIGNED_IN) =>
  new AppError(401, code, message);
export const forbidden = (message: string = Msg.FORBIDDEN) => new AppError(403, Code.FORBIDDEN, message);
export const notFound = (message: string = Msg.NOT_FOUND) => new AppError(404, Code.NOT_FOUND, message);
export const conflict = (message: string = Msg.CONFLICT) => new AppError(409, Code.CONFLICT, message);
/** Spec §2: 418 sends the client to complete its enterprise information (/system/companyInfo?type=1). */
export const companyInfoRequired = (message: string, data: unknown = null) =>
  new AppError(418, Code.COMPLETE_COMPANY_INFO, message, data);
export const tooMany = (message: string = Msg.TOO_MANY_REQUESTS, data: unknown = null) =>
  new AppError(429, Code.TOO_MANY_REQUESTS, message, data);

function firstMessage(fieldErrors: Record<string, string[]>): string | undefined {
  for (const list of Object.values(fieldErrors)) if (list.length) return list[0];
  return undefined;
}

/** Parse client input with a contract schema; a mismatch is a 400 with messages keyed by field. */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  // PostgreSQL refuses NUL in text: a client sending one gets a 400, never a 500
  const nul = nulPath(input, []);
  if (nul) throw validationFailed({ [nul.join('.') || '_']: ['不能包含空字符'] });
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of r.error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    const list = fieldErrors[key] ?? [];
    list.push(issue.message);
    fieldErrors[key] = list;
  }
  throw validationFailed(fieldErrors);
}

function nulPath(value: unknown, path: (string | number)[], depth = 0): (string | number)[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (depth > 20 || value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    const hit = nulPath(v, [...path, Array.isArray(value) ? Number(k) : k], depth + 1);
    if (hit) return hit;
  }
  return null;
}
