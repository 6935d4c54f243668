import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { envelope, type AdminRole } from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import type { AccessService, Freshness } from './access.service.js';
import type { AdminActor } from './audit.service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The lowest console role the route needs; set only by adminRoute (routes under /api/admin without it fail at start-up). */
    adminRole?: AdminRole;
  }
}

/** A console route as declared: the role matrix test calls every one of them with every role. */
export interface AdminRouteInfo {
  method: 'GET' | 'POST';
  /** As registered, under /api. */
  url: string;
  role: AdminRole;
  freshness: Freshness;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface AdminRouteSpec<Q extends z.ZodType | undefined, B extends z.ZodType | undefined, R extends z.ZodType> {
  method: 'GET' | 'POST';
  /** Relative to /api, starting with /admin/. */
  url: string;
  /** The lowest role that may call it. */
  role: AdminRole;
  summary: string;
  query?: Q;
  body?: B;
  /** The schema of the envelope's data. */
  reply: R;
  /** Default: 'write' for POST (needs console activity within the idle window), 'read' for GET. */
  freshness?: Freshness;
}

export interface AdminHandlerInput<Q, B> {
  query: Q;
  body: B;
  /** Who is calling (for the audit entry, written in the same transaction as the change). */
  actor: AdminActor;
  req: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Every /api/admin route goes through here: it declares the lowest role it needs, and the check (role, then the
 * console session's freshness) runs in onRequest, before the body is read or validated, so a caller below the role
 * learns nothing from validation messages. The handler returns the envelope's data.
 */
export class AdminRoutes {
  readonly declared: AdminRouteInfo[] = [];

  constructor(private readonly access: AccessService) {}

  private guard(role: AdminRole, freshness: Freshness) {
    return async (req: FastifyRequest) => {
      req.adminActor = await this.access.authorize(req.session, role, freshness, { ip: req.ip, requestId: req.id });
    };
  }

  /** Refuses any route under /api/admin that did not come through `route` (registered on the /api plugin). */
  enforceOn(api: FastifyInstance) {
    api.addHook('onRoute', (route) => {
      if (/^\/api\/admin(\/|$)/.test(route.url) && !route.config?.adminRole)
        throw new Error(`${String(route.method)} ${route.url}: console routes are declared with adminRoute (modules/admin/admin-route.ts)`);
    });
  }

  route<Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined, R extends z.ZodType = z.ZodType>(
    fastify: FastifyInstance,
    spec: AdminRouteSpec<Q, B, R>,
    handler: (input: AdminHandlerInput<Out<Q>, Out<B>>) => Promise<z.output<R>>,
  ): void {
    const freshness = spec.freshness ?? (spec.method === 'GET' ? 'read' : 'write');
    this.declared.push({ method: spec.method, url: `/api${spec.url}`, role: spec.role, freshness });
    fastify.route({
      method: spec.method,
      url: spec.url,
      schema: {
        tags: ['admin'],
        summary: `${spec.summary}（${spec.role}）`,
        ...(spec.query ? { querystring: spec.query } : {}),
        ...(spec.body ? { body: spec.body } : {}),
        response: { 200: envelope(spec.reply) },
      },
      config: { auth: 'required', adminRole: spec.role },
      onRequest: this.guard(spec.role, freshness),
      handler: async (req, reply) => ok(await handler({ query: req.query as Out<Q>, body: req.body as Out<B>, actor: req.adminActor!, req, reply })),
    });
  }

  /**
   * A console route that answers a file (CSV export; `inline`: shown in place, a screenshot) instead of the envelope;
   * same role and freshness checks.
   */
  file<Q extends z.ZodType>(
    fastify: FastifyInstance,
    spec: Omit<AdminRouteSpec<Q, undefined, z.ZodType>, 'reply' | 'body' | 'method'> & { query: Q },
    handler: (input: AdminHandlerInput<z.output<Q>, undefined>) => Promise<{ name: string; contentType: string; body: string | Buffer; inline?: boolean }>,
  ): void {
    const freshness = spec.freshness ?? 'read';
    this.declared.push({ method: 'GET', url: `/api${spec.url}`, role: spec.role, freshness });
    fastify.route({
      method: 'GET',
      url: spec.url,
      schema: { tags: ['admin'], summary: `${spec.summary}（${spec.role}）`, querystring: spec.query },
      config: { auth: 'required', adminRole: spec.role },
      onRequest: this.guard(spec.role, freshness),
      handler: async (req, reply) => {
        const file = await handler({ query: req.query as z.output<Q>, body: undefined, actor: req.adminActor!, req, reply });
        reply.header('content-type', file.contentType);
        reply.header('cache-control', 'no-store');
        const disposition = file.inline ? 'inline' : 'attachment; filename="export.csv"';
        reply.header('content-disposition', `${disposition}; filename*=UTF-8''${encodeURIComponent(file.name)}`);
        return reply.send(file.body);
      },
    });
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the console guard on /api/admin routes. */
    adminActor?: AdminActor;
  }
}
