import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  dataAccountsSchema,
  dataExportQuery,
  dataHeatmapSchema,
  dataNotesPageSchema,
  dataNotesQuery,
  dataOverviewSchema,
  dataRangeQuery,
  dataRefreshQuery,
  dataRefreshSchema,
  dataSeriesQuery,
  dataSeriesSchema,
  dataTopQuery,
  dataTopSchema,
  envelope,
} from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { userIdOf } from '../../http/auth-guard.js';
import type { DataService } from './data.service.js';

export function dataRoutes(deps: { data: DataService }) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['data'];
    const auth = { auth: 'required' } as const;
    const { data } = deps;

    app.get('/data/overview', {
      schema: { tags, summary: '数据概览（publishData 与互动，含区间增量；来自每日快照）', querystring: dataRangeQuery, response: { 200: envelope(dataOverviewSchema) } },
      config: auth,
    }, async (req) => ok(await data.overview(userIdOf(req), req.query)));

    app.get('/data/series', {
      schema: { tags, summary: '每日趋势（粉丝、阅读与互动）', querystring: dataSeriesQuery, response: { 200: envelope(dataSeriesSchema) } },
      config: auth,
    }, async (req) => ok(await data.series(userIdOf(req), req.query)));

    app.get('/data/accounts', {
      schema: { tags, summary: '账号对比', querystring: dataRangeQuery, response: { 200: envelope(dataAccountsSchema) } },
      config: auth,
    }, async (req) => ok(await data.accountsCompare(userIdOf(req), req.query)));

    app.get('/data/notes', {
      schema: { tags, summary: '内容数据表（排序、筛选、分页）', querystring: dataNotesQuery, response: { 200: envelope(dataNotesPageSchema) } },
      config: auth,
    }, async (req) => ok(await data.notes(userIdOf(req), req.query)));

    app.get('/data/heatmap', {
      schema: { tags, summary: '发布时间热力图（星期 x 小时）', querystring: dataRangeQuery, response: { 200: envelope(dataHeatmapSchema) } },
      config: auth,
    }, async (req) => ok(await data.heatmap(userIdOf(req), req.query)));

    app.get('/data/top', {
      schema: { tags, summary: '热门笔记', querystring: dataTopQuery, response: { 200: envelope(dataTopSchema) } },
      config: auth,
    }, async (req) => ok(await data.top(userIdOf(req), req.query)));

    app.post('/data/refresh', {
      schema: { tags, summary: '立即刷新数据（每分钟一次）', querystring: dataRefreshQuery, response: { 200: envelope(dataRefreshSchema) } },
      config: auth,
    }, async (req) => ok(await data.refresh(userIdOf(req), req.query.accountId)));

    app.get('/data/export.csv', {
      schema: { tags, summary: '导出 CSV（内容表或每日趋势；UTF-8 BOM）', querystring: dataExportQuery },
      config: { ...auth, rateLimit: { max: 20, timeWindow: '1 minute' } },
    }, async (req, reply) => {
      const file = await data.exportCsv(userIdOf(req), req.query);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('cache-control', 'private, no-store');
      reply.header('content-disposition', `attachment; filename="data.csv"; filename*=UTF-8''${encodeURIComponent(file.name)}`);
      return reply.send(file.body);
    });

    app.get('/data/report.pdf', {
      schema: { tags, summary: '导出 PDF 报告（概览、趋势、账号对比、热门笔记；由 publisher 进程的浏览器生成）', querystring: dataRangeQuery },
      config: { ...auth, rateLimit: { max: 6, timeWindow: '1 minute' } },
    }, async (req, reply) => {
      const file = await data.reportPdf(userIdOf(req), req.query);
      reply.header('content-type', 'application/pdf');
      reply.header('cache-control', 'private, no-store');
      reply.header('content-disposition', `attachment; filename="report.pdf"; filename*=UTF-8''${encodeURIComponent(file.name)}`);
      return reply.send(file.body);
    });
  };
}
