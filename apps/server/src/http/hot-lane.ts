import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { z, type ZodType } from 'zod';
import fastJson from 'fast-json-stringify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { TOKEN_NAME } from '@inkstone/shared';
import type { SessionAuthenticator, SessionInfo } from './auth-guard.js';
import { API_SECURITY_HEADERS } from './security-headers.js';
import { spend, type RateLimitStores, type RouteLimit } from './rate-limit-stores.js';
import { requestIdOf } from './request-id.js';
import { arrivedWhileDraining } from './connection-drain.js';

/**
 * A polled route's answer for a live session: the reply envelope (the route's handler gives the same). `query` is the
 * route's querystring after its own schema (never, so that a route may name its query type).
 */
export type HotPoll = (session: SessionInfo, query: never) => Promise<unknown>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Marks a polled GET route (one of logger.ts's POLLED_ROUTES, every open tab calls it every few seconds) whose
     * calls with a live session are answered by http/hot-lane.ts before Fastify's pipeline.
     */
    hotPoll?: HotPoll;
  }
}

const lanes = new WeakMap<FastifyInstance, HotLane>();

/** The hot lane in front of `app` (tests read its counts). */
export const hotLaneOf = (app: FastifyInstance): HotLane | undefined => lanes.get(app);

interface Poll {
  answer: HotPoll;
  /** The route's query from the raw query string, or null when the pipeline must answer. */
  query: (raw: string) => unknown;
  serialize: (data: unknown) => string;
  limit: () => RouteLimit | null;
}

/**
 * The route's response schema as a compiled serializer (fast-json-stringify, Fastify's own): it writes exactly the
 * schema's properties, in the schema's order, and throws on a missing required one, as the pipeline's zod serializer
 * does. The pipeline's zod encode walks every route's schemas through the same functions, which by the time the
 * server is warm cost a poll ~17 µs of its ~60; this code is generated per route.
 */
function compileSerializer(schema: ZodType): (data: unknown) => string {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'throw' });
  return fastJson(json as Parameters<typeof fastJson>[0]);
}

/** A query the lane parses itself: plain `name=value` pairs of URL-safe characters, each name once. */
const PLAIN_QUERY = /^[A-Za-z0-9_]{1,32}=[A-Za-z0-9_.-]{0,64}(&[A-Za-z0-9_]{1,32}=[A-Za-z0-9_.-]{0,64}){0,7}$/;

const SECURITY_HEADERS = API_SECURITY_HEADERS.flat();

/** How many distinct query strings a hot poll remembers the checked query of (a poll's query repeats every call). */
const REMEMBERED_QUERIES = 10_000;

/**
 * The route's querystring schema (Fastify's validator, the one the pipeline runs) applied to a raw query string, or
 * null when the lane must leave the call to the pipeline (a query it does not parse, or one the schema refuses). The
 * check is pure, so its outcome is remembered per string: every poll of an account sends the same one.
 */
function queryReader(schema: ZodType | undefined, url: string): (raw: string) => unknown {
  const validate = schema ? (validatorCompiler({ schema, method: 'GET', url, httpPart: 'querystring' }) as (data: unknown) => { value?: unknown; error?: unknown }) : null;
  const seen = new Map<string, unknown>();
  return (raw) => {
    const known = seen.get(raw);
    if (known !== undefined || seen.has(raw)) return known;
    const parsed = raw === '' ? {} : plainQuery(raw);
    let value: unknown = null;
    if (parsed && validate) {
      const checked = validate(parsed);
      if (!checked.error) value = Object.freeze(checked.value);
    } else if (parsed) value = Object.freeze(parsed);
    if (seen.size >= REMEMBERED_QUERIES) seen.clear();
    seen.set(raw, value);
    return value;
  };
}

function plainQuery(raw: string): Record<string, string> | null {
  if (!PLAIN_QUERY.test(raw)) return null;
  const out: Record<string, string> = {};
  for (const pair of raw.split('&')) {
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    if (Object.hasOwn(out, name)) return null;
    out[name] = pair.slice(eq + 1);
  }
  return out;
}

/**
 * The hot lane: every online creator's tab polls a few routes (login state, the notice bubble, account unread counts)
 * every 15 s, and Fastify's general pipeline (a dozen hooks, each a promise) cost three quarters of such a call
 * (issue 11). A call to a route marked `config.hotPoll` is answered here, before routing, when it is a plain case:
 * GET, no body, a query the lane can parse exactly, a live session, within the route's rate limit, not shutting down.
 * It runs the same guards in their plain form (session lookup, the same rate-limit store and key, the route's own
 * query schema and response schema, the API security headers, the request id, the log line). Everything else (no or
 * a refused token, an odd query, a limit reached, an answer that throws) goes to the pipeline untouched, which
 * answers it as it always did: the lane only ever takes a call it can answer exactly as the pipeline would.
 */
export class HotLane {
  private readonly polls = new Map<string, Poll>();
  private closing = false;
  /** The app's logger (Fastify's root logger: its level is the one an operator turns up). */
  private log: Logger | null = null;
  /** Calls answered here, and calls to a hot poll handed to the pipeline after all (a refusal, an odd query...). */
  private readonly counts = { answered: 0, passed: 0 };

  constructor(
    private readonly deps: {
      sessions: SessionAuthenticator;
      limits: RateLimitStores;
      /** Routes whose log lines are written at debug (logger.ts POLLED_ROUTES): a hot poll must be one of them. */
      quiet: ReadonlySet<string>;
    },
  ) {}

  /** Fastify's `serverFactory`: the HTTP server Fastify would build, with the lane in front of its handler. */
  serverFactory = (pipeline: RequestListener, options: FastifyServerOptions & { http?: object }): Server => {
    const server = createServer(options.http ?? {}, (req, res) => this.handle(req, res, pipeline));
    // What Fastify sets on a server it builds itself.
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };

  /** How many calls the lane answered and how many hot-poll calls it left to the pipeline, since start. */
  stats(): { answered: number; passed: number } {
    return { ...this.counts };
  }

  /** Collects the routes marked `config.hotPoll` as they are registered; stops taking calls once the app closes. */
  install(app: FastifyInstance): void {
    lanes.set(app, this);
    // A pino logger: app.ts gives Fastify the container's (loggerInstance).
    this.log = app.log as unknown as Logger;
    app.addHook('onRoute', (route) => {
      const answer = route.config?.hotPoll;
      // Fastify's HEAD twin of the GET route carries its config; HEAD calls go to the pipeline.
      if (!answer || route.method === 'HEAD') return;
      const url = route.url;
      if (route.method !== 'GET' || !url) throw new Error(`${String(route.method)} ${url}: only a GET route can be a hot poll`);
      // The pipeline counts a public route's calls per address: the lane counts per session.
      if (route.config?.auth === 'public') throw new Error(`${url}: a hot poll must read the session (auth 'required' or 'optional')`);
      if (!this.deps.quiet.has(url)) throw new Error(`${url}: a hot poll must be one of the polled routes (logger.ts POLLED_ROUTES)`);
      const response = (route.schema?.response as Record<number, ZodType> | undefined)?.[200];
      if (!response) throw new Error(`${url}: a hot poll needs its 200 response schema`);
      const querystring = route.schema?.querystring as ZodType | undefined;
      this.polls.set(url, {
        answer,
        query: queryReader(querystring, url),
        serialize: compileSerializer(response),
        limit: () => this.deps.limits.limitOf('GET', url),
      });
    });
    app.addHook('preClose', async () => {
      this.closing = true;
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse, pipeline: RequestListener): void {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    // A shutting-down server's late requests get the closing guard's envelope in the pipeline (http/connection-drain.ts).
    const poll = req.method === 'GET' && !this.closing && !arrivedWhileDraining(req) ? this.polls.get(path) : undefined;
    const token = req.headers[TOKEN_NAME];
    if (!poll || typeof token !== 'string' || !token || req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
      return void pipeline(req, res);
    }
    const started = performance.now();
    const pass = () => {
      this.counts.passed += 1;
      pipeline(req, res);
    };
    this.answer(poll, token, q < 0 ? '' : url.slice(q + 1))
      .then((body) => (body === null ? pass() : this.send(req, res, body, started)), pass)
      // Writing the reply failed part-way (nothing the pipeline could still answer): drop the connection.
      .catch((err: unknown) => {
        this.log?.error({ err, url: req.url }, 'hot lane reply failed');
        res.destroy();
      });
  }

  /** The serialized reply, or null when the pipeline must answer this call. */
  private async answer(poll: Poll, token: string, rawQuery: string): Promise<string | null> {
    const query = poll.query(rawQuery);
    if (query === null) return null;
    const session = this.deps.sessions.cachedSession(token) ?? (await this.deps.sessions.authenticate(token));
    const limit = poll.limit();
    if (!limit) return null;
    const within = spend(limit, `s:${session.sessionId}`);
    if (!(typeof within === 'boolean' ? within : await within)) return null;
    return poll.serialize(await poll.answer(session, query as never));
  }

  private send(req: IncomingMessage, res: ServerResponse, body: string, started: number): void {
    const id = requestIdOf(req);
    // One flat list, in the pipeline's order: the security headers it sets first, then the reply's own.
    res.writeHead(200, [...SECURITY_HEADERS, 'content-type', 'application/json; charset=utf-8', 'x-request-id', id, 'content-length', String(Buffer.byteLength(body))]);
    res.end(body);
    this.counts.answered += 1;
    // Polled routes log at debug only (logger.ts RequestLogController); the same fields as the pipeline's line.
    if (this.log?.isLevelEnabled('debug')) {
      this.log.debug(
        {
          reqId: id,
          req: { method: req.method, url: req.url, host: req.headers.host, ip: req.socket.remoteAddress, socket: req.socket },
          res: { statusCode: 200 },
          responseTime: Math.round(performance.now() - started),
        },
        'request completed',
      );
    }
  }
}
