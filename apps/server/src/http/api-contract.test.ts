import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/app.js';
import { registeredRoutes } from './auth-guard.js';

const ROUTES_TS = fileURLToPath(new URL('../../../../packages/shared/src/api/routes.ts', import.meta.url));

/**
 * Registered /api routes (and /publish-api) that are deliberately outside ApiRoutes, because they do not answer the `{code,msg,data}`
 * envelope the typed client reads, or because no web code calls them. Each entry says which.
 */
const outsideContract: Record<string, string> = {
  // SSE streams: the web reads them with EventSource / a streaming fetch.
  'GET /api/mp/task/stream/:taskId': 'SSE stream',
  'GET /api/agent/turn/stream/:turnId': 'SSE stream',
  // Files: the browser downloads them by URL.
  'GET /api/graphic/task/zip': 'file download',
  'GET /api/writing/draft/export': 'file download',
  'GET /api/knowledge/doc/file': 'file download',
  'GET /api/data/export.csv': 'file download',
  'GET /api/data/report.pdf': 'file download',
  'GET /api/admin/audit/export.csv': 'file download',
  'GET /publish-api/publish/screenshot': 'file download',
  'GET /api/admin/codes/export.csv': 'file download',
  'GET /api/admin/platform-health/screenshot': 'file download (PNG, fetched as a blob)',
  // GrowthBook's SDK protocol: the SDK fetches its own payload, not an envelope.
  'GET /api/features': 'GrowthBook payload',
  'GET /api/features/:clientKey': 'GrowthBook payload',
  'POST /api/eval/:clientKey': 'GrowthBook remote evaluation (the SDK protocol, not the envelope)',
  // Payment vendors post signed notifications in their own protocols.
  'POST /api/pay/notify/:gateway': 'payment vendor notification',
  'POST /api/pay/refund-notify/:gateway': 'payment vendor notification',
  // Reports from the publishing client (path parameters and free-form queries the typed client has no use for).
  'POST /api/publish/:platform/submitStatus': 'publishing client report',
  'POST /api/engine/v2/log/collect': 'log beacon (the web posts it with fetch so a failing API call can still report)',
  'GET /api/engine/log/collect/sync/draft/success': 'publishing client report',
  'GET /api/engine/log/collect/sync/draft/fail': 'publishing client report',
  'GET /api/engine/log/collect/publish/success': 'publishing client report',
  'GET /api/engine/log/collect/publish/fail': 'publishing client report',
  // Development pages of the embedded integrations answer HTML for a human tester.
  'GET /api/pay/sandbox/checkout': 'sandbox page',
  'POST /api/pay/sandbox/checkout': 'sandbox page',
  'GET /api/dev/sms-outbox': 'sandbox page',
  'GET /api/dev/sms-outbox/page': 'sandbox page',
  'GET /api/dev/wx-sandbox/scan': 'sandbox page',
  'POST /api/dev/wx-sandbox/scan': 'sandbox page',
  // The OpenAPI document and its viewer.
  'GET /api/docs': 'API docs',
  'GET /api/docs/json': 'API docs',
  'GET /api/docs/yaml': 'API docs',
  'GET /api/docs/static/*': 'API docs',
  'GET /api/docs/static/index.html': 'API docs',
  'GET /api/docs/static/swagger-initializer.js': 'API docs',
};

/** Where the server mounts a contract path: under `/api`, except the publisher's `/publish-api`. */
const mounted = (path: string) => (path.startsWith('/publish-api/') ? path : `/api${path}`);

/** `ApiRoutes` as the TypeScript checker sees it: each path with the literal type of its `method`. */
function contractRoutes(): Map<string, string> {
  const program = ts.createProgram([ROUTES_TS], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(ROUTES_TS)!;
  const decl = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'ApiRoutes');
  if (!decl) throw new Error('ApiRoutes not found in routes.ts');
  const routes = new Map<string, string>();
  for (const prop of checker.getTypeAtLocation(decl).getProperties()) {
    const method = checker.getTypeOfSymbol(checker.getPropertyOfType(checker.getTypeOfSymbol(prop), 'method')!);
    if (!method.isStringLiteral()) throw new Error(`${prop.name}: method is not one literal`);
    routes.set(`${method.value} ${mounted(prop.name)}`, prop.name);
  }
  return routes;
}

describe('one contract between server and web', () => {
  let t: TestApp;
  let contract: Map<string, string>;
  beforeAll(async () => {
    t = await startTestApp();
    contract = contractRoutes();
  });
  afterAll(async () => {
    await t?.close();
  });

  const served = () =>
    new Set(
      registeredRoutes(t.app)
        .filter((r) => (r.url.startsWith('/api/') || r.url.startsWith('/publish-api/')) && r.method !== 'HEAD' && r.method !== 'OPTIONS')
        .map((r) => `${r.method} ${r.url}`),
    );

  it('reads the whole ApiRoutes map, admin routes included', () => {
    expect(contract.size).toBeGreaterThan(150);
    expect(contract.has('POST /api/admin/orders/refund')).toBe(true);
    expect(contract.has('GET /api/admin/me')).toBe(true);
  });

  it('serves every path of ApiRoutes with the method the web client uses', () => {
    const routes = served();
    expect([...contract.keys()].filter((k) => !routes.has(k))).toEqual([]);
  });

  it('declares in ApiRoutes every /api and /publish-api route it serves, but for the listed exceptions', () => {
    const undeclared = [...served()].filter((k) => !contract.has(k) && !(k in outsideContract));
    expect(undeclared).toEqual([]);
  });

  it('lists no exception that is not served or that ApiRoutes declares after all', () => {
    const routes = served();
    const stale = Object.keys(outsideContract).filter((k) => !routes.has(k));
    expect(stale).toEqual([]);
    expect(Object.keys(outsideContract).filter((k) => contract.has(k))).toEqual([]);
  });
});
