import Fastify, { type FastifyInstance } from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';

/** Headers Fastify itself sets on the probe's reply; everything else on it came from helmet. */
const FASTIFY_OWN = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * What an API reply carries instead of the page set: a JSON envelope is never rendered as a document, so the page's CSP
 * directives, referrer and DNS-prefetch policies say nothing for it. Kept: no sniffing (a JSON reply must not run as a
 * script or page), no cross-origin reads (CORP), a CSP that lets nothing load and no foreign site frame it (for the
 * rare reply a browser opens as a document: an exported file, an uploaded picture). A poll carries a fifth of the page
 * set's ~700 header bytes, which at the polling paths' rates is most of the cost of a reply (issue 11).
 */
export const API_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['content-security-policy', "default-src 'none'; frame-ancestors 'self'"],
  ['cross-origin-resource-policy', 'same-origin'],
  ['x-content-type-options', 'nosniff'],
];

/**
 * Helmet's security headers on every page reply, computed once; API replies (`isApi`) get API_SECURITY_HEADERS, unless
 * they turn out to be an HTML page (the sandbox checkout and outbox pages live under /api), which get the page set.
 * @fastify/helmet builds helmet's middleware again on every request (the CSP directives parsed and re-serialised each
 * time), a tenth of the cost of a cheap API call; the headers never vary per request, so they are taken once from the
 * plugin itself (one injected request against a throwaway instance) and set as they are, on the raw response like
 * helmet does (SSE replies written with writeHead keep them).
 */
export async function installSecurityHeaders(app: FastifyInstance, options: FastifyHelmetOptions, isApi: (url: string) => boolean): Promise<void> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  probe.get('/', async () => '');
  const res = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const headers = Object.entries(res.headers).filter(([name, value]) => !FASTIFY_OWN.has(name) && typeof value === 'string') as [string, string][];
  app.addHook('onRequest', (req, reply, done) => {
    for (const [name, value] of isApi(req.url) ? API_SECURITY_HEADERS : headers) reply.raw.setHeader(name, value);
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html') && isApi(req.url)) for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done(null, payload);
  });
}
