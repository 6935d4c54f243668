import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ErrorCode, errorMessages } from '@inkstone/shared';
import { AppError } from './errors.js';
import { fail } from './envelope.js';
import { bodyStillComing, closeAfterReply } from './lingering-close.js';

const sourceLabel: Record<string, string> = { body: '请求体', querystring: '查询参数', params: '路径参数', headers: '请求头' };

/** 22021: invalid byte sequence for encoding; 22P05: untranslatable character (\u0000 in jsonb). */
const unstorableTextCodes = new Set(['22021', '22P05']);
/** 22P02 is also any bad literal; only its JSON form (a lone surrogate escape in jsonb) is the caller's text. */
const badJsonText = /invalid input syntax for type json|Unicode (low|high) surrogate/;

/** Walks the cause chain (drizzle wraps the driver's error) looking for a PostgreSQL text-encoding failure. */
function isUnstorableText(error: unknown): boolean {
  let e: unknown = error;
  for (let i = 0; i < 5 && e instanceof Error; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && unstorableTextCodes.has(code)) return true;
    if (code === '22P02' && badJsonText.test(`${e.message} ${String((e as { detail?: unknown }).detail ?? '')}`)) return true;
    if (/invalid byte sequence for encoding|unsupported Unicode escape sequence/.test(e.message)) return true;
    e = e.cause;
  }
  return false;
}

/** Turns every failure into the `{code, msg, data}` envelope; internals are logged, never sent. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, rawReply) => {
    // A refusal while the body is still coming (or one Fastify closes, as it does for a body over the limit) closes
    // the connection after the answer without resetting it: http/lingering-close.ts.
    if (rawReply.getHeader('connection') === 'close' || bodyStillComing(request.raw)) closeAfterReply(request.raw, rawReply.raw);
    // The route's response schema describes success; failures bypass it.
    const reply = rawReply.type('application/json; charset=utf-8').serializer((payload: unknown) => JSON.stringify(payload));
    if (error instanceof AppError) {
      return reply.status(200).send(fail(error.code, error.message, error.data));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') || sourceLabel[error.validationContext ?? ''] || '参数';
      const msg = `${field}：${first?.message ?? '格式不正确'}`;
      return reply.status(200).send(fail(ErrorCode.VALIDATION, msg, { field, source: error.validationContext ?? null }));
    }
    // Backstop for text PostgreSQL cannot store (NUL, broken encoding) that slipped past the input guard,
    // e.g. inside a multipart field: the caller's input is at fault, not the server.
    if (isUnstorableText(error)) {
      return reply.status(200).send(fail(ErrorCode.VALIDATION, '参数：包含无法保存的字符（如空字符）'));
    }
    const status = error.statusCode ?? 500;
    if (status === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(200).send(fail(ErrorCode.PAYLOAD_TOO_LARGE, errorMessages[ErrorCode.PAYLOAD_TOO_LARGE]!));
    }
    if (status === 429) {
      return reply.status(200).send(fail(ErrorCode.RATE_LIMITED, errorMessages[ErrorCode.RATE_LIMITED]!));
    }
    if (status === 415 || error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(200).send(fail(ErrorCode.VALIDATION, '不支持的请求内容类型'));
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, empty JSON body and similar protocol errors from Fastify itself.
      const msg = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError ? '请求体不是有效的JSON' : '请求格式不正确';
      return reply.status(200).send(fail(ErrorCode.VALIDATION, msg));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(200).send(fail(ErrorCode.SERVER_ERROR, errorMessages[ErrorCode.SERVER_ERROR]!));
  });
}
