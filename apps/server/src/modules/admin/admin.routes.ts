import type { FastifyInstance } from 'fastify';
import { adminAuditPageSchema, adminAuditQuery, adminMeSchema, adminReauthBody, adminReauthSendSchema, adminRoleBody, adminRoleReplySchema } from '@inkstone/shared';
import type { AccessService } from './access.service.js';
import type { AdminRoutes } from './admin-route.js';
import type { AuditService } from './audit.service.js';
import type { AuditFilter } from './audit.repo.js';

const DAY_MS = 86_400_000;
/** A yyyy-MM-dd bound is a China calendar day: `from` its start, `to` the end of it; anything else is an instant. */
export function dateBound(v: string | undefined, end: boolean): Date | undefined {
  if (!v) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
    const start = new Date(`${v}T00:00:00+08:00`);
    return end ? new Date(start.getTime() + DAY_MS) : start;
  }
  return new Date(v);
}

/** Access: who is at the console, re-verification, roles and the audit log. */
export function accessRoutes(r: AdminRoutes, d: { access: AccessService; audit: AuditService }) {
  return async (app: FastifyInstance) => {
    r.route(app, { method: 'GET', url: '/admin/me', role: 'viewer', freshness: 'none', summary: '当前管理员：角色、免验证截止时间', reply: adminMeSchema }, ({ req }) =>
      d.access.me(req.session),
    );

    r.route(
      app,
      { method: 'POST', url: '/admin/reauth/send', role: 'viewer', freshness: 'none', summary: '向本人手机号发送重新验证的短信验证码', reply: adminReauthSendSchema },
      ({ req }) => d.access.sendCode(req.session, req.ip),
    );

    r.route(
      app,
      { method: 'POST', url: '/admin/reauth', role: 'viewer', freshness: 'none', summary: '输入短信验证码重新验证管理后台会话', body: adminReauthBody, reply: adminMeSchema },
      ({ req, body, actor }) => d.access.reauth(actor, req.session, body.code),
    );

    r.route(
      app,
      { method: 'POST', url: '/admin/users/role', role: 'owner', summary: '授予或收回管理后台角色（role 为 null 即收回）', body: adminRoleBody, reply: adminRoleReplySchema },
      ({ body, actor }) => d.access.setRole(actor, body.userId, body.role),
    );

    const filterOf = (q: {
      actor?: number | undefined;
      action?: string | undefined;
      targetType?: string | undefined;
      targetId?: string | undefined;
      from?: string | undefined;
      to?: string | undefined;
    }): AuditFilter => ({
      actor: q.actor,
      action: q.action || undefined,
      targetType: q.targetType || undefined,
      targetId: q.targetId || undefined,
      from: dateBound(q.from, false),
      to: dateBound(q.to, true),
    });

    r.route(app, { method: 'GET', url: '/admin/audit', role: 'operator', summary: '操作日志（新的在前）', query: adminAuditQuery, reply: adminAuditPageSchema }, ({ query }) =>
      d.audit.search(filterOf(query), query.pageNum, query.pageSize),
    );

    r.file(app, { url: '/admin/audit/export.csv', role: 'operator', summary: '导出操作日志（CSV，条件同列表）', query: adminAuditQuery }, async ({ query }) => ({
      name: `操作日志_${new Date().toISOString().slice(0, 10)}.csv`,
      contentType: 'text/csv; charset=utf-8',
      body: await d.audit.exportCsv(filterOf(query)),
    }));
  };
}
