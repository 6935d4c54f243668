import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ErrorCode, errorMessages } from '@inkstone/shared';
import { AppError } from './errors.js';
import { fail } from './envelope.js';

const sourceLabel: Record<string, string> = { body: '请求体', querystring: '查询参数', params: '路径参数', headers: '请求头' };

/** Turns every failure into the `{code, msg, data}` envelope; internals are logged, never sent. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, rawReply) => {
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
