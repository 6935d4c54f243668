import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { XMLParser } from 'fast-xml-parser';
import { z } from 'zod';
import { verifyWechatSignature } from './mp.js';

export interface WechatMpEventDeps {
  /** The Token configured on the Official Account's server settings page. */
  token: string;
  recordScan: (scene: string, openid: string) => Promise<boolean>;
  /** Milliseconds since the epoch, for the timestamp window. */
  now?: () => number;
}

const MAX_SKEW_SECONDS = 5 * 60;
// WeChat gives up after 5 s and retries; answering a little earlier keeps a slow database from causing retries.
const REPLY_BUDGET_MS = 4000;
const SCENE_RE = /^[A-Za-z0-9_-]{8,64}$/;
const OPENID_RE = /^[A-Za-z0-9_-]{1,128}$/;

// A repeated or malformed parameter is treated like a missing one, so every bad request gets the same 403.
const param = z.string().max(512).optional().catch(undefined);
const signedQuery = z.object({ signature: param, timestamp: param, nonce: param });

const parser = new XMLParser({
  // Keeps "00123"-like scenes and openids as the strings WeChat sent.
  parseTagValue: false,
  // Event payloads carry their values in CDATA; DOCTYPE entity expansion is only attack surface here.
  processEntities: false,
  ignoreAttributes: true,
  trimValues: true,
});

interface PushedMessage {
  MsgType?: unknown;
  Event?: unknown;
  EventKey?: unknown;
  FromUserName?: unknown;
}

/** The scene and openid of a QR-login event, or undefined for every other kind of push. */
function loginScan(xml: string): { scene: string; openid: string } | undefined {
  const doc = parser.parse(xml) as { xml?: PushedMessage } | undefined;
  const msg = doc?.xml;
  if (!msg || typeof msg !== 'object' || msg.MsgType !== 'event') return undefined;
  const { Event: event, EventKey: key, FromUserName: openid } = msg;
  if (typeof key !== 'string' || typeof openid !== 'string' || !OPENID_RE.test(openid)) return undefined;
  let scene: string | undefined;
  // A new follower's scan arrives as subscribe with a prefixed key; a plain follow has an empty key.
  if (event === 'subscribe' && key.startsWith('qrscene_')) scene = key.slice('qrscene_'.length);
  else if (event === 'SCAN') scene = key;
  return scene !== undefined && SCENE_RE.test(scene) ? { scene, openid } : undefined;
}

const text = (reply: FastifyReply, status: number, body: string) => reply.status(status).type('text/plain; charset=utf-8').send(body);

/** The Official Account's server URL: the one-off URL check and the event push that reports QR scans. */
export function wechatMpEventRoutes(deps: WechatMpEventDeps) {
  const now = deps.now ?? Date.now;

  /** Why the request cannot be from WeChat, or null if it is signed and fresh. */
  const rejection = (q: z.infer<typeof signedQuery>): string | null => {
    if (!q.signature || !q.timestamp || !q.nonce || !verifyWechatSignature(deps.token, q.signature, q.timestamp, q.nonce)) {
      return 'invalid signature';
    }
    // The signature does not cover the body, so a captured request must not stay usable for long.
    if (!/^\d{1,12}$/.test(q.timestamp) || Math.abs(Math.floor(now() / 1000) - Number(q.timestamp)) > MAX_SKEW_SECONDS) {
      return 'stale timestamp';
    }
    return null;
  };

  return async (fastify: FastifyInstance) => {
    // Registered here so XML bodies are accepted on these routes only. Parsing waits until the signature checks out.
    fastify.addContentTypeParser(['text/xml', 'application/xml'], { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
      done(null, body);
    });
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/wx/mp/event',
      {
        schema: { hide: true, querystring: signedQuery.extend({ echostr: param }) },
      },
      async (req, reply) => {
        const q = req.query;
        const why = rejection(q);
        if (why) return text(reply, 403, why);
        return text(reply, 200, q.echostr ?? '');
      },
    );

    app.post(
      '/wx/mp/event',
      {
        schema: { hide: true, querystring: signedQuery.extend({ openid: param }) },
        // WeChat pushes from a few shared addresses; every push is signature-checked instead.
        config: { rateLimit: false },
      },
      async (req, reply) => {
        const why = rejection(req.query);
        if (why) {
          req.log.warn({ reason: why }, 'wechat mp push rejected');
          return text(reply, 403, why);
        }
        let scan: ReturnType<typeof loginScan>;
        try {
          scan = typeof req.body === 'string' ? loginScan(req.body) : undefined;
        } catch (err) {
          // WeChat retries anything but "success"; an unreadable body from a verified sender will not improve on retry.
          req.log.warn({ err }, 'wechat mp push body is not valid XML');
        }
        if (scan) {
          const { scene, openid } = scan;
          const recorded = deps.recordScan(scene, openid).then(
            (ok) => {
              if (!ok) req.log.info({ scene }, 'wechat scan for an unknown, expired or already scanned scene');
              return true;
            },
            (err: unknown) => {
              req.log.error({ err, scene }, 'recording a wechat scan failed');
              return false;
            },
          );
          let timer: ReturnType<typeof setTimeout> | undefined;
          // Past the budget the write carries on in the background: answering late would only earn duplicate pushes.
          const done = await Promise.race([
            recorded,
            new Promise<undefined>((resolve) => {
              timer = setTimeout(() => resolve(undefined), REPLY_BUDGET_MS);
            }),
          ]);
          clearTimeout(timer);
          // Anything but "success" makes WeChat push again (up to 3 times); recordScan is idempotent, so a failed write gets retried.
          if (done === false) return text(reply, 500, 'error');
        }
        return text(reply, 200, 'success');
      },
    );
  };
}
