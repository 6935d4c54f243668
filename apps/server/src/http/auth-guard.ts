import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TOKEN_NAME } from '@inkstone/shared';
import type { SessionInfo, SessionService } from '../modules/auth/session.service.js';
import { notLoggedIn } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionInfo | null;
  }
  interface FastifyContextConfig {
    /** 'required': 401/430 without a live session. 'optional': session attached when the token is good. */
    auth?: 'required' | 'optional';
  }
}

export const tokenOf = (request: FastifyRequest): string | undefined => {
  const value = request.headers[TOKEN_NAME];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

/** Authenticates before validation, so a logged-out caller learns that first. */
export function installAuthGuard(app: FastifyInstance, sessions: SessionService): void {
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config?.auth;
    if (!mode) return;
    if (mode === 'required') {
      request.session = await sessions.authenticate(tokenOf(request));
      return;
    }
    const token = tokenOf(request);
    if (!token) return;
    request.session = await sessions.authenticate(token).catch(() => null);
  });
}

export function userIdOf(request: FastifyRequest): number {
  if (!request.session) throw notLoggedIn();
  return request.session.userId;
}
