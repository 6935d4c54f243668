import type { Envelope } from '@inkstone/shared';

export function ok<T>(data: T, msg = 'success'): Envelope<T> {
  return { code: 0, msg, data };
}

export function fail(code: number, msg: string, data: unknown = null): Envelope<unknown> {
  return { code, msg, data };
}
