import type { Socket } from 'node:net';
import type { FastifyError, FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '@inkstone/shared';
import { fail } from './envelope.js';
import { AppError } from './errors.js';
import { closeAfterReply, endAndLinger, isLingering } from './lingering-close.js';
import { arrivedWhileDraining } from './connection-drain.js';

/**
 * Failures Fastify and Node answer on their own (bad URL, over-long path parameter, oversized headers, unparsable
 * request, shutting down) would otherwise be HTTP 4xx/5xx in English, some echoing the URL. The API promises the
 * `{code, msg, data}` envelope with HTTP 200 for every reply, and a reply must never reflect the caller's input.
 */

const frameworkMessages: Record<string, string> = {
  FST_ERR_BAD_URL: '网址格式不正确',
  FST_ERR_MAX_PARAM_LENGTH: '路径参数过长',
};

function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const msg = frameworkMessages[error.code] ?? '请求格式不正确';
  // reply.send is Fastify's thenable reply, not work that can fail later: nothing to await.
  void reply.status(200).type('application/json; charset=utf-8').send(fail(ErrorCode.VALIDATION, msg));
}

/**
 * Node's HTTP parser rejected the request (headers or URL over maxHeaderSize: 431; malformed request line; timeout).
 * No request object exists, so the reply is written to the socket by hand, as Fastify's own handler does, and the
 * connection is closed because the parser cannot find the next request in what follows. The client may still be
 * writing (the rest of an over-long URL): the reply is followed by a half-close and a bounded linger
 * (http/lingering-close.ts), not by a close that would reset the connection before the client read it.
 */
function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  // A lingering socket already has its answer; the parser, still attached until then, may complain once more.
  if (err.code === 'ECONNRESET' || socket.destroyed || isLingering(socket)) return;
  const msg = err.code === 'HPE_HEADER_OVERFLOW' ? '请求头或网址过长' : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '请求超时，请重试' : '请求格式不正确';
  this.log.debug({ code: err.code }, 'client error');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(fail(ErrorCode.VALIDATION, msg));
  endAndLinger(socket, `HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** Options for `Fastify({...})`. */
export const frameworkErrorOptions = {
  frameworkErrors,
  clientErrorHandler,
  // Node's default (16 KiB) is stated here because the 431 above depends on it.
  http: { maxHeaderSize: 16 * 1024 },
  // Answered by installClosingGuard instead, inside the envelope.
  return503OnClosing: false,
  routerOptions: { maxParamLength: 100 },
} satisfies FastifyHttpOptions<import('node:http').Server>;

/**
 * While the server shuts down (its connections draining, http/connection-drain.ts, or Fastify closing), new requests
 * get the 服务正在重启 envelope and a closed connection instead of Fastify's raw 503 or a reset.
 */
export function installClosingGuard(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing && !arrivedWhileDraining(request.raw)) return;
    closeAfterReply(request.raw, reply.raw);
    throw new AppError(ErrorCode.SERVICE_UNAVAILABLE);
  });
}
