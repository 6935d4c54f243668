import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The caller's `x-request-id` when it looks like one (a proxy's trace id), else a fresh UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
}
