import { Code, type Envelope, Msg } from '@ks/contracts';

export function ok<T>(data: T, message: string = Msg.OK): Envelope<T> {
  return { code: Code.OK, data, message };
}

export function fail(code: number, message: string, data: unknown = null): Envelope<unknown> {
  return { code, data, message };
}
