import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  draftDetailSchema,
  draftExportQuery,
  draftItemSchema,
  draftSaveBody,
  envelope,
  idBody,
  idQuery,
  pageOf,
  pageQuery,
  personaSaveBody,
  personaSchema,
} from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { userIdOf } from '../../http/auth-guard.js';
import type { DraftService } from './drafts.service.js';

export function draftRoutes(deps: { drafts: DraftService }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['writing'];
    const required = { auth: 'required' as const };
    const { drafts } = deps;

    // ---- drafts ----
    app.get(
      '/writing/draft/list',
      {
        schema: { tags, summary: '草稿列表（按更新时间倒序）', querystring: pageQuery, response: { 200: envelope(pageOf(draftItemSchema)) } },
        config: required,
      },
      async (req) => ok(await drafts.drafts(userIdOf(req), req.query.pageNum, req.query.pageSize)),
    );

    app.get(
      '/writing/draft/detail',
      {
        schema: { tags, summary: '草稿详情', querystring: idQuery, response: { 200: envelope(draftDetailSchema) } },
        config: required,
      },
      async (req) => ok(await drafts.draft(userIdOf(req), req.query.id)),
    );

    app.post(
      '/writing/draft/save',
      {
        schema: { tags, summary: '保存草稿（无 id 新建；自动保存用）', body: draftSaveBody, response: { 200: envelope(draftDetailSchema) } },
        bodyLimit: 4 * 1024 * 1024,
        config: required,
      },
      async (req) => ok(await drafts.saveDraft(userIdOf(req), req.body)),
    );

    app.post(
      '/writing/draft/delete',
      {
        schema: { tags, summary: '删除草稿', body: idBody, response: { 200: envelope(z.null()) } },
        config: required,
      },
      async (req) => {
        await drafts.deleteDraft(userIdOf(req), req.body.id);
        return ok(null);
      },
    );

    app.get(
      '/writing/draft/export',
      {
        schema: { tags, summary: '导出草稿（docx 或 md，content-disposition 附件）', querystring: draftExportQuery },
        config: required,
      },
      async (req, reply) => {
        const file = await drafts.exportDraft(userIdOf(req), req.query.id, req.query.format);
        const ascii = file.filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '');
        reply.header('content-type', file.contentType);
        reply.header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
        reply.header('cache-control', 'no-store');
        return reply.send(file.body);
      },
    );

    // ---- personas ----
    app.get(
      '/persona/list',
      {
        schema: { tags: ['persona'], summary: '人设列表', response: { 200: envelope(z.array(personaSchema)) } },
        config: required,
      },
      async (req) => ok(await drafts.personas(userIdOf(req))),
    );

    app.get(
      '/persona/detail',
      {
        schema: { tags: ['persona'], summary: '人设详情', querystring: idQuery, response: { 200: envelope(personaSchema) } },
        config: required,
      },
      async (req) => ok(await drafts.persona(userIdOf(req), req.query.id)),
    );

    app.post(
      '/persona/save',
      {
        schema: { tags: ['persona'], summary: '新建或修改人设（首次创建后 firstCreatePersona 为 true）', body: personaSaveBody, response: { 200: envelope(personaSchema) } },
        config: required,
      },
      async (req) => ok(await drafts.savePersona(userIdOf(req), req.body)),
    );

    app.post(
      '/persona/delete',
      {
        schema: { tags: ['persona'], summary: '删除人设', body: idBody, response: { 200: envelope(z.null()) } },
        config: required,
      },
      async (req) => {
        await drafts.deletePersona(userIdOf(req), req.body.id);
        return ok(null);
      },
    );
  };
}
