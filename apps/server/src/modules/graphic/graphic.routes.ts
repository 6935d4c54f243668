import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import {
  cardAddBody,
  cardImageAiBody,
  cardImageSetBody,
  cardImageUploadFields,
  cardRemoveBody,
  cardReorderBody,
  cardStyleBody,
  cardUpdateBody,
  coverBody,
  coverReply,
  envelope,
  ErrorCode,
  graphicCardsReply,
  graphicDraftSaveBody,
  cardImageMaterialBody,
  materialSearchQuery,
  materialSearchReply,
  materialStatusReply,
  graphicDraftSaveReply,
  graphicTaskInfoSchema,
  graphicTaskQuery,
  graphicTemplatesReply,
  graphicTopicQuery,
  graphicTopicReply,
  imagegenStatusReply,
  limits,
} from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { userIdOf } from '../../http/auth-guard.js';
import { appError } from '../../http/errors.js';
import { suggestTopics } from '../publish/tags.js';
import type { GraphicService } from './graphic.service.js';
import type { GraphicNoteService } from './note.service.js';

/** An upload refused before its body was read must not leave the rest to drain over a kept-alive socket. */
async function closingOnError<T>(reply: FastifyReply, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    reply.header('connection', 'close');
    throw err;
  }
}

export function graphicRoutes(deps: { graphic: GraphicService; notes: GraphicNoteService }) {
  return async (fastify: FastifyInstance) => {
    await fastify.register(multipart, { limits: { fileSize: limits.uploadMaxBytes + 1, files: 1 } });
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['graphic'];
    const auth = { auth: 'required' as const };
    const { notes } = deps;
    const cards = envelope(graphicCardsReply);

    app.post(
      '/graphic/cover',
      {
        schema: { tags, summary: '用标题生成封面卡片（1080x1440 PNG），保存到图片库并返回地址', body: coverBody, response: { 200: envelope(coverReply) } },
        config: auth,
      },
      async (req) => ok(await deps.graphic.cover(userIdOf(req), req.body)),
    );

    app.get(
      '/graphic/task/info',
      {
        schema: { tags, summary: '图文任务：标题、正文、话题与卡片（生成中时卡片可能为空）', querystring: graphicTaskQuery, response: { 200: envelope(graphicTaskInfoSchema) } },
        config: auth,
      },
      async (req) => ok(await notes.info(userIdOf(req), req.query.taskId)),
    );

    app.get(
      '/graphic/templates',
      {
        schema: { tags, summary: '卡片模板与配色', response: { 200: envelope(graphicTemplatesReply) } },
        config: auth,
      },
      async () => ok(notes.templates()),
    );

    app.get(
      '/graphic/imagegen/status',
      {
        schema: { tags, summary: 'AI配图是否开启（未开启时 reason 说明原因）及每张积分', response: { 200: envelope(imagegenStatusReply) } },
        config: auth,
      },
      async () => ok(await notes.imagegenStatus()),
    );

    app.get(
      '/graphic/recommend/topic',
      {
        schema: { tags, summary: '根据文字推荐话题（与 /agent/xhs/tags 相同的关键词提取）', querystring: graphicTopicQuery, response: { 200: envelope(graphicTopicReply) } },
        config: auth,
      },
      async (req) => ok({ tags: suggestTopics(req.query.text, 10) }),
    );

    app.post(
      '/graphic/card/update',
      {
        schema: { tags, summary: '修改一张卡片的文字、模板或配色（卡片图重新生成）', body: cardUpdateBody, response: { 200: cards } },
        config: auth,
      },
      async (req) => ok(await notes.updateCard(userIdOf(req), req.body)),
    );

    app.post(
      '/graphic/card/style',
      {
        schema: { tags, summary: '切换一张（index）或全部卡片的模板/配色', body: cardStyleBody, response: { 200: cards } },
        config: auth,
      },
      async (req) => ok(await notes.style(userIdOf(req), req.body)),
    );

    app.post(
      '/graphic/card/reorder',
      {
        schema: { tags, summary: '调整卡片顺序（order 为全部卡片 id 的新顺序）', body: cardReorderBody, response: { 200: cards } },
        config: auth,
      },
      async (req) => ok(await notes.reorder(userIdOf(req), req.body)),
    );

    app.post(
      '/graphic/card/add',
      {
        schema: { tags, summary: '新增一张卡片（最多18张）', body: cardAddBody, response: { 200: cards } },
        config: auth,
      },
      async (req) => ok(await notes.add(userIdOf(req), req.body)),
    );

    app.post(
      '/graphic/card/remove',
      {
        schema: { tags, summary: '删除一张卡片（至少保留1张）', body: cardRemoveBody, response: { 200: cards } },
        config: auth,
      },
      async (req) => ok(await notes.remove(userIdOf(req), req.body)),
    );

    app.post(
      '/graphic/card/image/upload',
      {
        schema: {
          tags,
          summary:
            '上传图片替换卡片图（?taskId=&index=&aspect=，multipart 字段 file；jpg、jpeg、png、gif；20MB 以内；按 aspect 裁成 3:4 1080x1440、1:1 1080x1080 或 4:3 1440x1080，默认 3:4）',
          querystring: cardImageUploadFields,
          consumes: ['multipart/form-data'],
          response: { 200: cards },
        },
        config: { auth: 'required' as const, rateLimit: { max: 60, timeWindow: '1 minute' } },
      },
      async (req, reply) =>
        ok(
          await closingOnError(reply, async () => {
            let part;
            try {
              part = await req.file({ limits: { fileSize: limits.uploadMaxBytes + 1, files: 1, fields: 10, fieldSize: 1024, parts: 12 }, throwFileSizeLimit: false });
            } catch {
              throw appError(ErrorCode.FILE_READ_FAILED, '请使用 multipart/form-data 上传文件');
            }
            if (!part || part.fieldname !== 'file') throw appError(ErrorCode.FILE_READ_FAILED, '请选择要上传的文件（字段名 file）');
            return notes.upload(
              userIdOf(req),
              req.query.taskId,
              req.query.index,
              { filename: part.filename ?? '', mimetype: part.mimetype ?? '', file: part.file },
              req.query.aspect,
            );
          }),
        ),
    );

    app.post(
      '/graphic/card/image/set',
      {
        schema: { tags, summary: '用图片库中的图片替换卡片图', body: cardImageSetBody, response: { 200: cards } },
        config: auth,
      },
      async (req) => ok(await notes.setImage(userIdOf(req), req.body)),
    );

    app.get(
      '/graphic/material/status',
      {
        schema: { tags, summary: '素材搜索（图库）是否开启；未开启时 reason 说明原因', response: { 200: envelope(materialStatusReply) } },
        config: auth,
      },
      async () => ok(notes.materialStatus()),
    );

    app.get(
      '/graphic/material/search',
      {
        schema: { tags, summary: '搜索图库素材图片（未开启时 1006）', querystring: materialSearchQuery, response: { 200: envelope(materialSearchReply) } },
        config: { auth: 'required' as const, rateLimit: { max: 60, timeWindow: '1 minute' } },
      },
      async (req) => ok(await notes.materialSearch(req.query.q, req.query.page)),
    );

    app.post(
      '/graphic/card/image/material',
      {
        schema: { tags, summary: '用图库素材替换卡片图（服务器按 photoId 取图，校验后裁成 1080x1440）', body: cardImageMaterialBody, response: { 200: cards } },
        config: { auth: 'required' as const, rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (req) => ok(await notes.setMaterial(userIdOf(req), req.body)),
    );

    app.post(
      '/graphic/card/image/ai',
      {
        schema: { tags, summary: 'AI 生成卡片配图（每张扣 ai_image 积分，失败退还；未开启时 1006）', body: cardImageAiBody, response: { 200: cards } },
        config: { auth: 'required' as const, rateLimit: { max: 20, timeWindow: '1 minute' } },
      },
      async (req) => ok(await notes.aiImage(userIdOf(req), req.body)),
    );

    app.post(
      '/graphic/draft/save',
      {
        schema: { tags, summary: '保存图文标题、正文、话题（写入草稿列表，标记为图文）', body: graphicDraftSaveBody, response: { 200: envelope(graphicDraftSaveReply) } },
        config: auth,
      },
      async (req) => ok(await notes.saveDraft(userIdOf(req), req.body)),
    );

    app.get(
      '/graphic/task/zip',
      {
        schema: { tags, summary: '下载全部卡片图与文案（zip 附件）', querystring: graphicTaskQuery },
        config: auth,
      },
      async (req, reply) => {
        const file = await notes.zip(userIdOf(req), req.query.taskId);
        const ascii = file.name.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '');
        reply.header('content-type', 'application/zip');
        reply.header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`);
        reply.header('cache-control', 'no-store');
        return reply.send(Buffer.from(file.bytes));
      },
    );
  };
}
