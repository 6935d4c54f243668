import Fastify, { type FastifyInstance } from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';

/** Headers Fastify itself sets on the probe's reply; everything else on it came from helmet. */
const FASTIFY_OWN = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * Helmet's security headers on every reply, computed once. @fastify/helmet builds helmet's middleware again on every
 * request (the CSP directives parsed and re-serialised each time), a tenth of the cost of a cheap API call; the headers
 * never vary per request, so they are taken once from the plugin itself (one injected request against a throwaway
 * instance) and set as they are, on the raw response like helmet does (SSE replies written with writeHead keep them).
 */
export async function installSecurityHeaders(app: FastifyInstance, options: FastifyHelmetOptions): Promise<void> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  probe.get('/', async () => '');
  const res = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const headers = Object.entries(res.headers).filter(([name, value]) => !FASTIFY_OWN.has(name) && typeof value === 'string') as [string, string][];
  app.addHook('onRequest', (_req, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
