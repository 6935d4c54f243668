import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode, TOKEN_NAME } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../test/app.js';
import { loginByPhone } from '../test/auth-helpers.js';
import { describeOnDatabases } from '../test/database.js';

const INDEX = '<!doctype html><html><head><title>砚</title></head><body><div id="root"></div></body></html>';
const CHUNK = 'export const editor = 1;';

/** A stand-in for apps/web/dist: the shape Vite writes (hashed chunks under assets/, plain names beside). */
function stubWebDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'inkstone-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dir, 'assets', 'editor-Bx7k2Qm1.js'), CHUNK);
  writeFileSync(path.join(dir, 'assets', 'index-D4e5F6a7.css'), 'body{margin:0}');
  return dir;
}

const ANON_LIMIT = 50;

describeOnDatabases('web app files and API rate limits behind one address on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    // Session limit left at its default (600/min): the 20-user check below makes 800 calls from one address.
    t = await startTestApp({ db: dbKind, env: { WEB_DIST_DIR: stubWebDist(), RATE_LIMIT_ANON_PER_MINUTE: String(ANON_LIMIT) } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string, ip: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { 'x-forwarded-for': ip, ...headers } });

  it('serves 3,000 asset requests from one address, every one the real file with its type and a year of caching', async () => {
    const ip = '203.0.113.10';
    for (let i = 0; i < 3000; i++) {
      const res = await get(i % 2 ? '/assets/editor-Bx7k2Qm1.js' : '/assets/index-D4e5F6a7.css', ip);
      expect(res.statusCode).toBe(200);
      if (i % 2) {
        expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
        expect(res.body).toBe(CHUNK);
      } else expect(res.headers['content-type']).toMatch(/^text\/css/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('serves index.html, sw.js and icons uncached-by-default and never rate limited', async () => {
    const ip = '203.0.113.11';
    for (let i = 0; i < ANON_LIMIT * 3; i++) {
      for (const url of ['/', '/sw.js', '/favicon.svg', '/persona/123']) {
        const res = await get(url, ip);
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toBe('no-cache');
      }
    }
    const page = await get('/persona/does-not-exist', ip);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toBe(INDEX);
  });

  it('answers a missing asset with a plain 404 and an unknown page with index.html, never an envelope', async () => {
    const ip = '203.0.113.12';
    const missing = await get('/assets/editor-OLDHASH1.js', ip);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/plain/);
    expect(missing.body).not.toContain('"code"');
    const page = await get('/some/client/route?tab=2', ip);
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(INDEX);
    // The API keeps its envelope for unknown paths.
    const api = await get('/api/no-such-thing', ip);
    expect(api.json()).toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  it('lets 20 logged-in users behind one address each make a page worth of API calls, while anonymous calls stay limited per address', async () => {
    const office = '198.51.100.7';
    const users = await Promise.all(Array.from({ length: 20 }, () => loginByPhone(t)));
    const callsPerUser = 40; // 800 calls from one address: above the 600/min a per-address count would allow
    const codes = await Promise.all(
      users.map(async (u) => {
        const seen: number[] = [];
        for (let i = 0; i < callsPerUser; i++) {
          const res = await get('/api/auth/nowLoginUser', office, { [TOKEN_NAME]: u.tokenValue });
          seen.push((res.json() as { code: number }).code);
        }
        return seen;
      }),
    );
    expect(codes.flat().filter((c) => c !== 0)).toEqual([]);

    // Anonymous calls from the same address share one bucket of RATE_LIMIT_ANON_PER_MINUTE.
    const anon: number[] = [];
    for (let i = 0; i < ANON_LIMIT + 2; i++) anon.push((await get('/api/auth/isLogin', office)).json<{ code: number }>().code);
    expect(anon.slice(0, ANON_LIMIT).every((c) => c === 0)).toBe(true);
    expect(anon.slice(ANON_LIMIT)).toEqual([ErrorCode.RATE_LIMITED, ErrorCode.RATE_LIMITED]);
    // A bogus token does not buy a fresh bucket.
    const bogus = await get('/api/auth/isLogin', office, { [TOKEN_NAME]: 'not-a-real-token' });
    expect(bogus.json()).toMatchObject({ code: ErrorCode.RATE_LIMITED });
    // Another address is unaffected; the limited office still loads the app and its logged-in users still work.
    expect((await get('/api/auth/isLogin', '198.51.100.8')).json()).toMatchObject({ code: 0 });
    expect((await get('/assets/editor-Bx7k2Qm1.js', office)).statusCode).toBe(200);
    expect((await get('/editor/42', office)).body).toBe(INDEX);
    expect((await get('/api/auth/nowLoginUser', office, { [TOKEN_NAME]: users[0]!.tokenValue })).json()).toMatchObject({ code: 0 });
  });
});
