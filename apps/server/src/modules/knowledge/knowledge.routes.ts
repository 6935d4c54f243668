import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import {
  envelope,
  ErrorCode,
  knowledgeDocListQuery,
  knowledgeDocMoveBody,
  knowledgeDocPageSchema,
  knowledgeDocRenameBody,
  knowledgeDocSchema,
  knowledgeDocTextSchema,
  knowledgeFolderCreateBody,
  knowledgeFolderRenameBody,
  knowledgeFolderSchema,
  knowledgeIdBody,
  knowledgeIdQuery,
  knowledgeImportBody,
  knowledgeLimits,
  knowledgeQuotaSchema,
  knowledgeSearchQuery,
  knowledgeSearchSchema,
  knowledgeStatusSchema,
  knowledgeUploadQuery,
} from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { userIdOf } from '../../http/auth-guard.js';
import { appError } from '../../http/errors.js';
import type { UploadPart } from '../files/files.service.js';
import type { KnowledgeService } from './knowledge.service.js';

async function onePart(req: FastifyRequest): Promise<UploadPart> {
  let part;
  try {
    // One byte over the cap lets the reader notice the crossing; busboy stops reading the file there.
    part = await req.file({ limits: { fileSize: knowledgeLimits.fileMaxBytes + 1, files: 1, fields: 10, fieldSize: 1024, parts: 12 }, throwFileSizeLimit: false });
  } catch {
    throw appError(ErrorCode.FILE_READ_FAILED, '请使用 multipart/form-data 上传文件');
  }
  if (!part || part.fieldname !== 'file') throw appError(ErrorCode.FILE_READ_FAILED, '请选择要上传的文件（字段名 file）');
  return { filename: part.filename ?? '', mimetype: part.mimetype ?? '', file: part.file };
}

/** A refused upload must not leave the rest of its body to be drained over a kept-alive socket. */
async function closingOnError<T>(reply: FastifyReply, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    reply.header('connection', 'close');
    throw err;
  }
}

export function knowledgeRoutes(deps: { knowledge: KnowledgeService }) {
  return async (fastify: FastifyInstance) => {
    await fastify.register(multipart, { limits: { fileSize: knowledgeLimits.fileMaxBytes + 1, files: 1 } });
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['knowledge'];
    const required = { auth: 'required' as const };
    const { knowledge } = deps;

    // ---- folders ----
    app.get(
      '/knowledge/folder/list',
      {
        schema: { tags, summary: '知识库文件夹列表（含文档数）', response: { 200: envelope(z.array(knowledgeFolderSchema)) } },
        config: required,
      },
      async (req) => ok(await knowledge.folders(userIdOf(req))),
    );

    app.post(
      '/knowledge/folder/create',
      {
        schema: { tags, summary: '新建文件夹（同名时 code 1007）', body: knowledgeFolderCreateBody, response: { 200: envelope(knowledgeFolderSchema) } },
        config: required,
      },
      async (req) => ok(await knowledge.createFolder(userIdOf(req), req.body.name)),
    );

    app.post(
      '/knowledge/folder/rename',
      {
        schema: { tags, summary: '重命名文件夹', body: knowledgeFolderRenameBody, response: { 200: envelope(z.null()) } },
        config: required,
      },
      async (req) => {
        await knowledge.renameFolder(userIdOf(req), req.body.id, req.body.name);
        return ok(null);
      },
    );

    app.post(
      '/knowledge/folder/delete',
      {
        schema: { tags, summary: '删除文件夹（其中的文档移到未分类）', body: knowledgeIdBody, response: { 200: envelope(z.null()) } },
        config: required,
      },
      async (req) => {
        await knowledge.deleteFolder(userIdOf(req), req.body.id);
        return ok(null);
      },
    );

    // ---- documents ----
    app.get(
      '/knowledge/quota',
      {
        schema: { tags, summary: '知识库用量与上限（会员更大）', response: { 200: envelope(knowledgeQuotaSchema) } },
        config: required,
      },
      async (req) => ok(await knowledge.quota(userIdOf(req))),
    );

    app.post(
      '/knowledge/doc/upload',
      {
        schema: {
          tags,
          summary: '上传文档（multipart 字段 file；pdf、docx、md、txt、html；20MB 以内），随后后台解析',
          consumes: ['multipart/form-data'],
          querystring: knowledgeUploadQuery,
          response: { 200: envelope(knowledgeDocSchema) },
        },
        config: { auth: 'required' as const, rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (req, reply) => ok(await closingOnError(reply, async () => knowledge.upload(userIdOf(req), await onePart(req), req.query.folderId))),
    );

    app.post(
      '/knowledge/doc/import',
      {
        schema: { tags, summary: '按网址导入网页（服务器抓取，提取正文），随后后台解析', body: knowledgeImportBody, response: { 200: envelope(knowledgeDocSchema) } },
        config: { auth: 'required' as const, rateLimit: { max: 20, timeWindow: '1 minute' } },
      },
      async (req) => ok(await knowledge.importUrl(userIdOf(req), req.body.url, req.body.folderId)),
    );

    app.get(
      '/knowledge/doc/list',
      {
        schema: { tags, summary: '文档列表（可按文件夹、类型筛选；含解析状态与进度）', querystring: knowledgeDocListQuery, response: { 200: envelope(knowledgeDocPageSchema) } },
        config: required,
      },
      async (req) => {
        const { pageNum, pageSize, folderId, ext } = req.query;
        return ok(await knowledge.list(userIdOf(req), { folderId, ext }, pageNum, pageSize));
      },
    );

    app.get(
      '/knowledge/doc/info',
      {
        schema: { tags, summary: '文档详情（解析状态与进度）', querystring: knowledgeIdQuery, response: { 200: envelope(knowledgeDocSchema) } },
        config: required,
      },
      async (req) => ok(await knowledge.info(userIdOf(req), req.query.id)),
    );

    app.post(
      '/knowledge/doc/rename',
      {
        schema: { tags, summary: '重命名文档', body: knowledgeDocRenameBody, response: { 200: envelope(knowledgeDocSchema) } },
        config: required,
      },
      async (req) => ok(await knowledge.rename(userIdOf(req), req.body.id, req.body.name)),
    );

    app.post(
      '/knowledge/doc/move',
      {
        schema: { tags, summary: '移动文档到文件夹（folderId 为 null 表示未分类）', body: knowledgeDocMoveBody, response: { 200: envelope(knowledgeDocSchema) } },
        config: required,
      },
      async (req) => ok(await knowledge.move(userIdOf(req), req.body.id, req.body.folderId)),
    );

    app.post(
      '/knowledge/doc/delete',
      {
        schema: { tags, summary: '删除文档（连同段落与存储的文件）', body: knowledgeIdBody, response: { 200: envelope(z.null()) } },
        config: required,
      },
      async (req) => {
        await knowledge.delete(userIdOf(req), req.body.id);
        return ok(null);
      },
    );

    app.get(
      '/knowledge/doc/text',
      {
        schema: { tags, summary: '文档正文（解析后的文字，供阅读视图与段落定位）', querystring: knowledgeIdQuery, response: { 200: envelope(knowledgeDocTextSchema) } },
        config: required,
      },
      async (req) => ok(await knowledge.text(userIdOf(req), req.query.id)),
    );

    app.get(
      '/knowledge/doc/file',
      {
        schema: { tags, summary: '文档原文件（仅本人；供阅读器使用）', querystring: knowledgeIdQuery },
        config: required,
      },
      async (req, reply) => {
        const f = await knowledge.file(userIdOf(req), req.query.id);
        reply.header('content-type', f.mime);
        reply.header('content-length', String(f.size));
        reply.header('cache-control', 'private, no-store');
        reply.header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(f.name)}`);
        // Stored html is served as plain text: a page imported from the web never runs in our origin.
        reply.header('x-content-type-options', 'nosniff');
        return reply.send(f.stream);
      },
    );

    app.get(
      '/knowledge/search',
      {
        schema: {
          tags,
          summary: '检索（中文分词全文检索；配置向量模型后与向量检索混合排序；返回段落、页码与高亮位置）',
          querystring: knowledgeSearchQuery,
          response: { 200: envelope(knowledgeSearchSchema) },
        },
        config: required,
      },
      async (req) => {
        const { q, folderId, ext, docId, limit, mode } = req.query;
        return ok(await knowledge.search(userIdOf(req), q, { folderId, ext, docId }, limit, mode));
      },
    );

    app.get(
      '/knowledge/status',
      {
        schema: {
          tags,
          summary: '检索能力：全文检索始终可用；向量检索是否开启、模型、向量存储（pgvector 或 real[] 回退）与已生成向量的文档数',
          response: { 200: envelope(knowledgeStatusSchema) },
        },
        config: required,
      },
      async (req) => ok(await knowledge.status(userIdOf(req))),
    );
  };
}
