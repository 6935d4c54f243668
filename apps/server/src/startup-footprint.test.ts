import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiCall, loginOn, startServer, type ServerProc } from './test/process.js';

/**
 * Idle memory on embedded defaults (issue 11): start-up loads only what every install needs. Each package below is
 * needed by some installs (Redis, PostgreSQL, Alipay) or some actions (a notice saved, a page or Word file read, a
 * draft exported, a feed read, a picture or card made, a file sniffed, Chinese text segmented for a creator), and is
 * loaded then, not at start-up.
 */
const LOADED_ON_DEMAND = ['@node-rs/jieba', 'bullmq', 'ioredis', 'pg', 'alipay-sdk', 'linkedom', '@mozilla/readability', 'docx', 'feedsmith', 'sharp', 'file-type'];

/** A module hook that writes every package the process loads to a file, one name a line. */
const RECORDER = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
const seen = new Set();
export async function load(url, context, next) {
  const m = /node_modules\\\\/((?:@[^/]+\\\\/)?[^/]+)/.exec(url);
  if (m && !seen.has(m[1])) { seen.add(m[1]); appendFileSync(process.env.LOADED_PACKAGES_FILE, m[1] + '\\\\n'); }
  return next(url, context);
}\`));
`;

describe('start-up on embedded defaults', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'inkstone-footprint-'));
  let server: ServerProc | undefined;
  afterAll(async () => {
    if (server) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads none of the packages only some installs or some actions need', async () => {
    const recorder = path.join(dir, 'recorder.mjs');
    const loaded = path.join(dir, 'loaded.txt');
    writeFileSync(recorder, RECORDER);
    writeFileSync(loaded, '');
    server = await startServer({ DATA_DIR: path.join(dir, 'data'), NODE_OPTIONS: `--import ${recorder}`, LOADED_PACKAGES_FILE: loaded });
    const isLogin = (await (await fetch(`${server.url}/api/auth/isLogin`)).json()) as { code: number; data: unknown };
    expect(isLogin).toMatchObject({ code: 0, data: false });
    const packages = readFileSync(loaded, 'utf8').split('\n').filter(Boolean);
    // The recorder works: what every start needs is listed.
    expect(packages).toEqual(expect.arrayContaining(['fastify', '@electric-sql/pglite', 'drizzle-orm']));
    expect(packages.filter((p) => LOADED_ON_DEMAND.includes(p))).toEqual([]);

    // The hot-topic refresh (here the first hot list of a fresh install starts it) segments its titles in a child
    // process: jieba's ~45 MB never enter the server.
    const token = await loginOn(server.url, '13800138000');
    const hotList = () => apiCall<{ records: Array<{ title: string; tracks: string[] }> }>(server!.url, 'GET', '/topic/v3/hot', { token, query: { pageNum: '1', pageSize: '10' } });
    // The list waits a few seconds for that refresh, then answers what there is: asked again until it is filled.
    let hot = await hotList();
    for (const until = Date.now() + 30_000; hot.code === 0 && hot.data.records.length === 0 && Date.now() < until; hot = await hotList())
      await new Promise((r) => setTimeout(r, 250));
    expect(hot.code).toBe(0);
    expect(hot.data.records.length).toBeGreaterThan(0);
    expect(hot.data.records.some((r) => r.tracks.length > 0)).toBe(true);
    const after = readFileSync(loaded, 'utf8').split('\n').filter(Boolean);
    expect(after).not.toContain('@node-rs/jieba');
  }, 120_000);
});
