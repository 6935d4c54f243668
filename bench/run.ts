import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Figure } from './lib.js';

/**
 * Runs the scenarios in bench/ (each file exporting `run`) one after another, prints what each measured, then issue 11's
 * table: every figure with its ratio against a baseline measured in the same run and PASS/FAIL against its target.
 *   node --import tsx bench/run.ts [name-part ...]     only scenarios whose file name contains one of the parts
 *   BENCH_BUILD=<name>                                   run apps/server/dist-<name> + apps/web/dist-<name> (or `src`)
 */
const TABLE: { id: string; figure: string; target: string }[] = [
  { id: 'bubble-pg', figure: '/api/notice/bubble vs bare Fastify (1,000 users, 350 notices), PostgreSQL', target: '>= 0.5x' },
  { id: 'bubble-pglite', figure: '/api/notice/bubble vs bare Fastify (1,000 users, 350 notices), PGlite', target: '>= 0.3x' },
  { id: 'bubble-p99', figure: '/api/notice/bubble p99 at 256 connections, PostgreSQL', target: '<= 10 ms' },
  { id: 'is-login', figure: '/api/auth/isLogin (valid token) vs bare Fastify', target: '>= 0.5x' },
  { id: 'account-unread', figure: '/api/publish/account/unread vs bare Fastify', target: '>= 0.5x' },
  { id: 'first-text', figure: 'first streamed text: product minus model stand-in (median of 15)', target: '<= +10 ms' },
  { id: 'concurrent-first-text', figure: '200 writing tasks at once: p95 time to first text, PGlite', target: '<= 1 s' },
  { id: 'concurrent-first-text-pg', figure: '200 writing tasks at once: p95 time to first text, PostgreSQL', target: '<= 1 s' },
  { id: 'points-rate', figure: 'exact points charges, PostgreSQL, 50-way on one user', target: '>= 1,000/s' },
  { id: 'points-ratio', figure: 'exact points charges vs plain single-row updates (still exact)', target: '>= 0.5x' },
  { id: 'browser-pool', figure: 'warm browser pool vs a browser per note (10 notes)', target: '>= 3x' },
  { id: 'idle-rss', figure: 'idle server RSS on embedded defaults, after start', target: '<= 250 MB' },
  { id: 'card-warm', figure: 'graphic card render (1080x1440 PNG, 8 templates), warm, median', target: '<= 150 ms' },
  { id: 'home-js', figure: 'home route: all JS loaded in the first 2 s, gzip', target: '<= 250 KB' },
  { id: 'data-dashboard', figure: '/dataAnalyse queries (3 accounts x 365 days x 200 notes each), PGlite or PostgreSQL', target: '<= 1 s' },
  { id: 'scale-polling', figure: '10,000 users polling bubble + unread every 15 s, 2 web processes, PostgreSQL + Redis', target: '0 errors, p99 <= 1 s' },
];

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !['run.ts', 'lib.ts'].includes(f) && (!only.length || only.some((o) => f.includes(o))))
  .sort();
const measured = new Map<string, Figure>();
const ran = new Set<string>();
for (const file of files) {
  const mod = (await import(`./${file}`)) as { run?: () => Promise<unknown>; figures?: readonly string[] };
  if (typeof mod.run !== 'function') continue;
  for (const id of mod.figures ?? []) ran.add(id);
  console.log(`\n== ${file}`);
  try {
    const result = (await mod.run()) as { figures?: Figure[] } | undefined;
    console.log(JSON.stringify(result, null, 2));
    for (const f of result?.figures ?? []) measured.set(f.id, f);
  } catch (err) {
    console.error(`${file} failed:`, err);
    process.exitCode = 1;
  }
}

const rows = TABLE.filter((r) => ran.has(r.id));
if (rows.length) {
  console.log(`\n== issue 11 figures (${new Date().toISOString()}, build ${process.env.BENCH_BUILD ?? 'dist'})`);
  const width = Math.max(...rows.map((r) => r.figure.length));
  for (const r of rows) {
    const f = measured.get(r.id);
    const verdict = !f ? 'FAIL (not measured)' : f.pass ? 'PASS' : 'FAIL';
    console.log(`${r.figure.padEnd(width)}  ${(f?.value ?? '-').padEnd(44)}  target ${r.target.padEnd(10)}  ${verdict}`);
    if (!f?.pass) process.exitCode = 1;
  }
}
