import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { envelope, ErrorCode, idBody, imageItemSchema, imageSearchQuery, limits, quoteFileSchema, uploadResultSchema, userProfileSchema, writingLimits } from '@inkstone/shared';
import type { UserService } from '../user/user.service.js';
import { ok } from '../../http/envelope.js';
import { userIdOf } from '../../http/auth-guard.js';
import { appError } from '../../http/errors.js';
import { closeAfterReply } from '../../http/lingering-close.js';
import type { FileService, UploadPart } from './files.service.js';

async function onePart(req: FastifyRequest, maxBytes: number): Promise<UploadPart> {
  let part;
  try {
    // One byte over the cap lets the reader notice the crossing; busboy stops reading the file there.
    part = await req.file({ limits: { fileSize: maxBytes + 1, files: 1, fields: 10, fieldSize: 1024, parts: 12 }, throwFileSizeLimit: false });
  } catch {
    throw appError(ErrorCode.FILE_READ_FAILED, '请使用 multipart/form-data 上传文件');
  }
  if (!part || part.fieldname !== 'file') throw appError(ErrorCode.FILE_READ_FAILED, '请选择要上传的文件（字段名 file）');
  return { filename: part.filename ?? '', mimetype: part.mimetype ?? '', file: part.file };
}

/**
 * An upload refused before its body was read (too large, wrong type) must not leave the rest of the body
 * to be drained over a kept-alive socket: the connection closes after the reply, which the client still sending
 * must be able to read (half-close and linger, http/lingering-close.ts).
 */
async function closingOnError<T>(reply: FastifyReply, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    closeAfterReply(reply.request.raw, reply.raw);
    throw err;
  }
}

/** The avatar upload stores its image with the files and its address on the profile. */
export function fileRoutes(deps: { files: FileService; users: UserService }) {
  return async (fastify: FastifyInstance) => {
    await fastify.register(multipart, { limits: { fileSize: limits.uploadMaxBytes + 1, files: 1 } });
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const required = { auth: 'required' as const };
    const { files } = deps;

    // ---- files ----
    app.post(
      '/writing/file/upload',
      {
        schema: {
          tags: ['file'],
          summary: '上传引用文件（multipart 字段 file；docx、pdf、txt、md；10MB 以内）',
          consumes: ['multipart/form-data'],
          response: { 200: envelope(quoteFileSchema) },
        },
        config: { auth: 'required' as const, rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (req, reply) => ok(await closingOnError(reply, async () => files.uploadQuote(userIdOf(req), await onePart(req, writingLimits.quoteFileMaxBytes)))),
    );

    app.get(
      '/writing/file/list',
      {
        schema: { tags: ['file'], summary: '引用文件列表', response: { 200: envelope(z.array(quoteFileSchema)) } },
        config: required,
      },
      async (req) => ok(await files.listQuotes(userIdOf(req))),
    );

    app.post(
      '/writing/file/delete',
      {
        schema: { tags: ['file'], summary: '删除引用文件', body: idBody, response: { 200: envelope(z.null()) } },
        config: required,
      },
      async (req) => {
        await files.delete(userIdOf(req), req.body.id);
        return ok(null);
      },
    );

    app.post(
      '/user/avatar',
      {
        schema: {
          tags: ['user'],
          summary: '上传头像（裁剪后的图片，multipart 字段 file；规则同 /wx/upload）',
          consumes: ['multipart/form-data'],
          response: { 200: envelope(userProfileSchema) },
        },
        config: { auth: 'required' as const, rateLimit: { max: 20, timeWindow: '1 minute' } },
      },
      async (req, reply) => {
        const userId = userIdOf(req);
        const { url } = await closingOnError(reply, async () => files.uploadImage(userId, await onePart(req, limits.uploadMaxBytes)));
        return ok(await deps.users.setAvatar(userId, url));
      },
    );

    app.post(
      '/wx/upload',
      {
        schema: {
          tags: ['file'],
          summary: '上传图片（multipart 字段 file；jpg、jpeg、png、gif；20MB 以内）',
          consumes: ['multipart/form-data'],
          response: { 200: envelope(uploadResultSchema) },
        },
        config: { auth: 'required' as const, rateLimit: { max: 60, timeWindow: '1 minute' } },
      },
      async (req, reply) => {
        const { url } = await closingOnError(reply, async () => files.uploadImage(userIdOf(req), await onePart(req, limits.uploadMaxBytes)));
        return ok({ url });
      },
    );

    app.get(
      '/material/v3/image/search',
      {
        schema: { tags: ['file'], summary: '搜索我上传的图片（无结果时 code 991）', querystring: imageSearchQuery, response: { 200: envelope(z.array(imageItemSchema)) } },
        config: required,
      },
      async (req) => ok(await files.searchImages(userIdOf(req), req.query.keyword)),
    );
  };
}
