import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino, stdSerializers, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config.js';

/** Headers that carry credentials; pino replaces their values wherever a request, reply or plain `headers` object is logged. */
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'inkstone-token', 'x-api-key', 'proxy-authorization', 'x-auth-token'];
/** Log fields that must never hold a credential in clear, at the top level or one object down. */
const SECRET_FIELDS = ['token', 'tokenValue', 'ticket', 'password', 'apiKey', 'secret', 'cookie', 'cookies'];

export const redactPaths = [
  ...SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `res.headers["${h}"]`, `headers["${h}"]`, `*.headers["${h}"]`]),
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`]),
];

/**
 * Query parameters whose values are credentials or personal data: session tokens and stream tickets, SMS/OAuth codes,
 * signatures, keys, WeChat login scenes (whoever holds one may finish that login), phone numbers.
 */
const SECRET_PARAM = /token|ticket|code|sign|key|secret|passw|pwd|auth|session|scene|phone|openid|echostr/i;

/** The URL with the values of secret query parameters replaced; everything else is kept byte for byte. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const masked = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judge the name as written.
      }
      return eq >= 0 && SECRET_PARAM.test(name) ? `${rawName}=[REDACTED]` : pair;
    })
    .join('&');
  return `${url.slice(0, q + 1)}${masked}${hash < 0 ? '' : url.slice(hash)}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

export const logSerializers = {
  /** Fastify's own request summary, with the query's secrets masked; headers are not logged at all. */
  req: (req: LoggedRequest) => ({
    method: req.method,
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    host: req.host ?? req.hostname,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }),
  /** Any `{ url }` logged by our code (platform pages, callbacks) gets the same masking. */
  url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url),
  err: stdSerializers.err,
};

export interface LoggerSetup {
  /** Where lines go; default stdout (pretty on a terminal outside production). */
  destination?: DestinationStream;
}

/** The one process logger: secrets redacted, readable on a developer's terminal, JSON in production and in pipes. */
export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'NODE_ENV'>, setup: LoggerSetup = {}): Logger {
  const options: LoggerOptions = {
    level: config.LOG_LEVEL,
    redact: { paths: redactPaths, censor: '[REDACTED]' },
    serializers: logSerializers,
  };
  if (setup.destination) return pino(options, setup.destination);
  if (config.NODE_ENV !== 'production' && process.stdout.isTTY) {
    // In-process (not a worker transport) so lines written just before exit are not lost.
    return pino(
      options,
      pretty({
        colorize: true,
        translateTime: 'SYS:HH:MM:ss',
        singleLine: true,
        // Request lines read "GET /api/x?token=[REDACTED] 200 12ms request completed"; other fields follow as JSON.
        messageFormat: '{if req.method}{req.method} {req.url} {end}{if res.statusCode}{res.statusCode} {responseTime}ms {end}{msg}',
        ignore: 'pid,hostname,reqId,req,res,responseTime',
      }),
    );
  }
  return pino(options);
}

/**
 * Routes the web calls on a timer (every 2-15 s per open tab): at info level they would bury everything else.
 * Their lines are written at debug; errors are still logged at error.
 */
export const POLLED_ROUTES = new Set([
  '/healthz',
  '/readyz',
  '/api/auth/isLogin',
  '/api/notice/bubble',
  '/api/publish/account/unread',
  '/api/publish/account/list/v3',
  '/api/wx/qrcode/openid',
  '/api/vip/pay/order/status',
  '/api/vip/pay/score-bundle/order/status',
  '/publish-api/chrome/login/connection',
  '/publish-api/publish/result',
]);

/**
 * One line per request at info ("request completed" with method, masked URL, status and time) instead of Fastify's two;
 * the "incoming request" line moves to debug, and polled routes log only at debug.
 */
export class RequestLogController extends LogController {
  constructor(private readonly quiet: ReadonlySet<string> = POLLED_ROUTES) {
    super();
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const responseTime = Math.round(reply.elapsedTime);
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime }, 'request errored');
      return;
    }
    const level = this.quiet.has(request.routeOptions.url ?? '') ? 'debug' : 'info';
    reply.log[level]({ req: request, res: reply, responseTime }, 'request completed');
  }
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** A level's number (pino's defaults; a custom level counts as always enabled). */
const LEVEL_VALUES: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/**
 * Fastify's per-request child logger, made only when the request logs something at an enabled level. pino redacts a
 * child's bindings as it makes it (the request id, through every redact path): for a poll that logs nothing at the
 * running level that was a tenth of the reply's cost.
 */
class LazyChildLogger {
  private made: Logger | undefined;
  constructor(
    private readonly parent: Logger,
    private readonly given: Record<string, unknown>,
    private readonly opts: { level?: string },
  ) {}
  private real(): Logger {
    return (this.made ??= this.parent.child(this.given, this.opts));
  }
  isLevelEnabled(level: string): boolean {
    if (this.made) return this.made.isLevelEnabled(level);
    return (LEVEL_VALUES[level] ?? Infinity) >= (LEVEL_VALUES[this.opts.level ?? this.parent.level] ?? 0);
  }
  private write(level: Level, args: unknown[]) {
    if (this.isLevelEnabled(level)) (this.real()[level] as (...a: unknown[]) => void)(...args);
  }
  fatal(...args: unknown[]) {
    this.write('fatal', args);
  }
  error(...args: unknown[]) {
    this.write('error', args);
  }
  warn(...args: unknown[]) {
    this.write('warn', args);
  }
  info(...args: unknown[]) {
    this.write('info', args);
  }
  debug(...args: unknown[]) {
    this.write('debug', args);
  }
  trace(...args: unknown[]) {
    this.write('trace', args);
  }
  silent() {}
  child(bindings: Record<string, unknown>, opts?: object): Logger {
    return this.real().child(bindings, opts);
  }
  bindings() {
    return this.real().bindings();
  }
  get level(): string {
    return this.made?.level ?? this.opts.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real().level = level;
  }
  get levels() {
    return this.parent.levels;
  }
}

export function lazyChildLogger(parent: Logger, bindings: Record<string, unknown>, opts: { level?: string }): Logger {
  return new LazyChildLogger(parent, bindings, opts) as unknown as Logger;
}
