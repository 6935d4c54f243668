import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TOKEN_NAME } from '@inkstone/shared';
import { notLoggedIn } from './errors.js';
import { authModeOf, type AuthMode } from './public-routes.js';
import { bodyStillComing, closeAfterReply } from './lingering-close.js';

/** Who a live token belongs to. */
export interface SessionInfo {
  sessionId: number;
  userId: number;
}

/**
 * What the guard needs from the session store (modules/auth's SessionService implements it): the session of a token,
 * or an AppError (401 not logged in, 430 revoked). Declared here so that http/ does not depend on a module.
 */
export interface SessionAuthenticator {
  authenticate(token: string | undefined): Promise<SessionInfo>;
  /** The session of a live token this process has cached, at once; undefined when only `authenticate` can tell. */
  cachedSession(token: string): SessionInfo | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionInfo | null;
  }
  interface FastifyContextConfig {
    /**
     * Filled in from http/public-routes.ts when the route is registered: 'required' (the default) answers 401/430
     * without a live session, 'optional' attaches the session when the token is good, 'public' does nothing.
     * A route may still spell it out, but then it must agree with the list (checked at start-up).
     */
    auth?: AuthMode;
  }
}

export interface RegisteredRoute {
  method: string;
  url: string;
  auth: AuthMode;
}

const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route registered after the guard was installed, with the auth mode it got (tests enumerate these). */
export const registeredRoutes = (app: FastifyInstance): readonly RegisteredRoute[] => registered.get(app) ?? [];

export const tokenOf = (request: FastifyRequest): string | undefined => {
  const value = request.headers[TOKEN_NAME];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

/**
 * Login is required by default: a route is public only when http/public-routes.ts lists it. Install this before any
 * plugin or route is registered, so that every route goes through the onRoute hook.
 */
export function installAuthGuard(app: FastifyInstance, sessions: SessionAuthenticator): void {
  const routes: RegisteredRoute[] = [];
  registered.set(app, routes);
  app.decorateRequest('session', null);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const modes = new Set(methods.map((m) => authModeOf(m, route.url)));
    if (modes.size !== 1) throw new Error(`${methods.join(',')} ${route.url}: its methods get different auth modes; register them separately`);
    const [mode] = [...modes] as [AuthMode];
    const declared = route.config?.auth;
    if (declared && declared !== mode) {
      throw new Error(`${methods.join(',')} ${route.url} declares auth '${declared}' but http/public-routes.ts gives it '${mode}'`);
    }
    route.config = { ...route.config, auth: mode };
    for (const method of methods) routes.push({ method, url: route.url, auth: mode });
  });
  // Runs before the body is read (onRequest), so a caller without a session never gets to upload anything.
  app.addHook('onRequest', async (request, reply) => {
    const mode = request.routeOptions.config?.auth;
    if (!mode || mode === 'public') return;
    if (mode === 'required') {
      try {
        request.session = await sessions.authenticate(tokenOf(request));
      } catch (err) {
        refuseBody(request, reply);
        throw err;
      }
      return;
    }
    const token = tokenOf(request);
    if (!token) return;
    request.session = await sessions.authenticate(token).catch(() => null);
  });
}

/**
 * Node drains an unread request body after the reply so the connection can be reused, which would read a 1 GiB
 * upload to the end just to throw it away. So a large (or chunked) body still on its way gets an answer with
 * `Connection: close`, then the half-close and bounded linger of http/lingering-close.ts (the client reads the
 * answer; closing at once would reset it). A small body is left to Node's drain: closing after it raced a keep-alive
 * client that sent its next request before it saw the FIN ("other side closed").
 */
function refuseBody(request: FastifyRequest, reply: FastifyReply): void {
  if (bodyStillComing(request.raw)) closeAfterReply(request.raw, reply.raw);
}

export function userIdOf(request: FastifyRequest): number {
  if (!request.session) throw notLoggedIn();
  return request.session.userId;
}
