import { z } from './zod';

/** Every /ks response: `{code, data, message}`; code 200 on success (spec §7). */
export interface Envelope<T = unknown> {
  code: number;
  data: T;
  message: string;
}

export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), data, message: z.string() });

/** `data` of a 400: messages keyed by field name. */
export interface ValidationErrorData {
  fieldErrors: Record<string, string[]>;
}

/** `data` of a 500. */
export interface InternalErrorData {
  requestId: string;
}

export interface Page<T> {
  records: T[];
  total: number;
}
