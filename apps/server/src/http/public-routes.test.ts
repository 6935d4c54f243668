import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../test/app.js';
import { installAuthGuard, registeredRoutes } from './auth-guard.js';
import { installErrorHandler } from './error-handler.js';
import { ok } from './envelope.js';
import { isWebFile, publicRoutes, publicRuleFor } from './public-routes.js';

/** Listed routes that this test app does not register (WeChat MP events replace the sandbox scan in production). */
const notRegisteredHere = new Set(['* /api/wx/mp/event']);

describe('login is required by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every registered route either refuses a caller without a token or is on the public list', async () => {
    const routes = registeredRoutes(t.app).filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
    expect(routes.length).toBeGreaterThan(100);
    const unprotected: string[] = [];
    for (const route of routes) {
      if (route.auth !== 'required') {
        // Open only through a list entry, or as one of the web app's own files.
        const rule = publicRuleFor(route.method, route.url);
        if (!(rule && rule.auth === route.auth) && !isWebFile(route.method, route.url)) unprotected.push(`${route.method} ${route.url} (${route.auth}, not listed)`);
        continue;
      }
      const url = route.url.replace(/:(\w+)/g, 'x').replace(/\*$/, 'x');
      const res = await t.call(route.method, `${t.url}${url}`, {
        headers: route.method === 'GET' ? {} : { 'content-type': 'application/json' },
        rawBody: route.method === 'GET' ? undefined : '{}',
      });
      if (res.code !== ErrorCode.NOT_LOGGED_IN) unprotected.push(`${route.method} ${route.url} answered ${res.code} without a token`);
    }
    expect(unprotected).toEqual([]);
  });

  it('has no stale entries in the public list', () => {
    const routes = registeredRoutes(t.app);
    const stale = publicRoutes.filter((p) => !notRegisteredHere.has(`${p.method} ${p.url}`) && !routes.some((r) => publicRuleFor(r.method, r.url) === p));
    expect(stale).toEqual([]);
  });

  it('a new route without any auth setting requires login, and a route cannot quietly opt out', async () => {
    const app = Fastify();
    installAuthGuard(app, t.container.services.sessions);
    installErrorHandler(app);
    app.get('/api/brand-new', async () => ok('secret'));
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/api/brand-new' });
    expect(res.json()).toMatchObject({ code: ErrorCode.NOT_LOGGED_IN });
    await app.close();

    const other = Fastify();
    installAuthGuard(other, t.container.services.sessions);
    expect(() => other.get('/api/sneaky', { config: { auth: 'optional' } }, async () => ok(null))).toThrow(/public-routes\.ts/);
    await other.close();
  });
});
