import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TOKEN_NAME } from '@inkstone/shared';
import { startOpenAiStandin } from '../apps/server/src/test/standins/openai-compatible.js';
import { openFreshPostgres } from '../apps/server/src/test/database.js';
import { loginThroughOutbox, SERVE_ENV, serverEntry, type Figure } from './lib.js';

export const figures = ['first-text', 'concurrent-first-text', 'concurrent-first-text-pg'] as const;

/**
 * AI writing streams (needs `npm run build`): the built product with an OpenAI-compatible stand-in as its model.
 * 1. Time to first streamed text byte through our server (POST /mp/task/create -> first SSE `delta`) vs straight
 *    from the stand-in (POST /chat/completions -> first content chunk), same run: the added latency.
 * 2. 200 concurrent tasks streamed over 200 SSE connections by one process: errors and the process's peak RSS.
 */
const SAMPLES = 15;
const CONCURRENT = 200;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.floor(s.length / 2)]!.toFixed(1));
};

/** Reads an SSE response until `done`/`error`; resolves with the time of the first delta and how it ended. */
async function consumeSse(res: Response, t0: number): Promise<{ firstDeltaMs: number | null; end: string | null; bytes: number }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let firstDeltaMs: number | null = null;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { firstDeltaMs, end: null, bytes };
    bytes += value.length;
    buf += decoder.decode(value, { stream: true });
    if (firstDeltaMs === null && buf.includes('event: delta')) firstDeltaMs = performance.now() - t0;
    const m = /event: (done|error)\n/.exec(buf);
    if (m) {
      await reader.cancel().catch(() => undefined);
      return { firstDeltaMs, end: m[1]!, bytes };
    }
    buf = buf.slice(-200);
  }
}

interface RunningProduct {
  url: string;
  pid: number;
  peakSampledKb: () => number;
  stop: () => Promise<void>;
}

/** The built product with the stand-in as its only model and quick writing free; `extraEnv` picks its database. */
async function startWritingProduct(standinBaseURL: string, standinKey: string, extraEnv: Record<string, string>): Promise<RunningProduct> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkstone-bench-writing-'));
  const env = {
    ...process.env,
    ...SERVE_ENV,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    RATE_LIMIT_PER_MINUTE: '100000000',
    RATE_LIMIT_ANON_PER_MINUTE: '100000000',
    TRUST_PROXY: 'true',
    APP_SECRET_KEY: 'cd'.repeat(32),
    // The stand-in has no concurrency limit of its own; a hosted model's would go in maxConcurrent. Writing job slots
    // (WRITING_CONCURRENCY) are left at their default.
    LLM_MODELS: JSON.stringify([{ id: 'standin', label: 'Stand-in', baseURL: standinBaseURL, apiKey: standinKey, model: 'bench-chat', maxConcurrent: 1000 }]),
    LLM_DEFAULT_MODEL: 'standin',
    ...extraEnv,
  };
  // Free quick writing for the bench users (an embedded database cannot be shared while the server runs).
  const admin = spawnSync(process.execPath, [...serverEntry('admin'), 'points:cost', '--feature', 'article_quick', '--point', '0'], { env, encoding: 'utf8' });
  if (admin.status !== 0) throw new Error(`admin CLI failed: ${admin.stderr}`);

  const child = spawn(process.execPath, serverEntry('main'), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let peakSampledKb = 0;
  const sampler = setInterval(() => {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peakSampledKb = Math.max(peakSampledKb, Number(m[1]));
    } catch {
      /* exited */
    }
  }, 50);
  const stop = async () => {
    clearInterval(sampler);
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /running at (http:\/\/localhost:\d+)/.exec(out);
        if (m) resolve(m[1]!.replace('localhost', '127.0.0.1'));
      });
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
    });
    return { url, pid: child.pid!, peakSampledKb: () => peakSampledKb, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** POST /mp/task/create for a quick article as `token` (each call from its own forwarded address). */
function taskCreator(url: string) {
  let ip = 0;
  return async (token: string) => {
    ip += 1;
    const res = await fetch(`${url}/api/mp/task/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_NAME]: token, 'x-forwarded-for': `10.9.${(ip >> 8) & 255}.${ip & 255}` },
      body: JSON.stringify({ createType: 'article', writeType: 'quick', content: '写一段关于城市骑行通勤的短文' }),
    });
    const body = (await res.json()) as { code: number; msg: string; data: { taskId: string } };
    if (body.code !== 0) throw new Error(`create failed: ${body.code} ${body.msg}`);
    return body.data.taskId;
  };
}

/** Time to first text byte through the product vs straight from the stand-in, SAMPLES times (after 2 untimed). */
async function firstText(product: RunningProduct, standinBaseURL: string, standinKey: string) {
  const token = await loginThroughOutbox(product.url, '13900002222');
  const create = taskCreator(product.url);
  const direct: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < SAMPLES + 2; i++) {
    const t0 = performance.now();
    const res = await fetch(`${standinBaseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${standinKey}` },
      body: JSON.stringify({ model: 'bench-chat', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    const reader = res.body!.getReader();
    let buf = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += new TextDecoder().decode(value);
      if (/"content":"[^"]/.test(buf)) break;
    }
    const d = performance.now() - t0;
    await reader.cancel();
    const t1 = performance.now();
    const taskId = await create(token);
    const sse = await fetch(`${product.url}/api/mp/task/stream/${taskId}`, { headers: { [TOKEN_NAME]: token } });
    const r = await consumeSse(sse, t1);
    if (i >= 2) {
      direct.push(d);
      ours.push(r.firstDeltaMs ?? Number.NaN);
    }
  }
  return { direct: median(direct), ours: median(ours), addedMs: Number((median(ours) - median(direct)).toFixed(1)), samples: SAMPLES };
}

/** 200 concurrent tasks and streams, from 20 creators (10 tasks each: a creator's own create limit is 30 a minute). */
async function concurrentTasks(product: RunningProduct) {
  const creators: string[] = [];
  for (let i = 0; i < CONCURRENT / 10; i++) creators.push(await loginThroughOutbox(product.url, `1390000${String(3000 + i).padStart(4, '0')}`, `10.8.0.${i + 1}`));
  const create = taskCreator(product.url);
  const baselineKb = product.peakSampledKb();
  const t2 = performance.now();
  const createdMs: number[] = [];
  // Each creator's client opens its task's stream as soon as its create answers (as the web app does), not after
  // all 200 creates have answered: a task's first text is not held up by other creators' creates.
  const results = await Promise.all(
    Array.from({ length: CONCURRENT }, async (_, i) => {
      const as = creators[i % creators.length]!;
      let id: string;
      try {
        id = await create(as);
        createdMs.push(performance.now() - t2);
      } catch (err) {
        return { ok: false, why: (err as Error).message, firstDeltaMs: null as number | null };
      }
      try {
        const res = await fetch(`${product.url}/api/mp/task/stream/${id}`, { headers: { [TOKEN_NAME]: as } });
        const r = await consumeSse(res, t2);
        return { ok: r.end === 'done', why: r.end ?? 'stream ended early', firstDeltaMs: r.firstDeltaMs };
      } catch (err) {
        return { ok: false, why: (err as Error).message, firstDeltaMs: null };
      }
    }),
  );
  const wallMs = performance.now() - t2;
  const status = readFileSync(`/proc/${product.pid}/status`, 'utf8');
  const hwmKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const errors = results.filter((r) => !r.ok);
  const firsts = results.map((r) => r.firstDeltaMs).filter((x): x is number => x !== null);
  const p95 = firstsP(firsts, 0.95);
  return {
    streams: CONCURRENT,
    errors: errors.length,
    errorKinds: [...new Set(errors.map((e) => e.why))].slice(0, 5),
    wallMs: Math.round(wallMs),
    createdP50Ms: firstsP(createdMs, 0.5),
    createdP95Ms: firstsP(createdMs, 0.95),
    firstTextP50Ms: firstsP(firsts, 0.5),
    firstTextP95Ms: p95,
    rssBeforeMb: Math.round(baselineKb / 1024),
    peakRssMb: Math.round(Math.max(hwmKb, product.peakSampledKb()) / 1024),
    pass: p95 !== null && p95 <= 1000 && errors.length === 0 && firsts.length === CONCURRENT,
  };
}

export async function run() {
  const standin = await startOpenAiStandin({ model: 'bench-chat' });
  // 40 chunks of 10 characters, 20 ms apart: a ~0.8 s answer, like a fast hosted model.
  standin.respond = () => ({ content: '城市骑行让通勤更健康也更省钱。'.repeat(27).slice(0, 400), chunkChars: 10, delayMs: 20 });
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  try {
    // On the embedded defaults (PGlite in the process): first text, then 200 at once.
    const embedded = await startWritingProduct(standin.baseURL, standin.apiKey, {});
    let first: Awaited<ReturnType<typeof firstText>>;
    let onPglite: Awaited<ReturnType<typeof concurrentTasks>>;
    try {
      first = await firstText(embedded, standin.baseURL, standin.apiKey);
      onPglite = await concurrentTasks(embedded);
    } finally {
      await embedded.stop();
    }
    // The same 200 on PostgreSQL, as a deployment that expects 200 creators writing at once runs it.
    let onPostgres: Awaited<ReturnType<typeof concurrentTasks>> | null = null;
    if (adminUrl) {
      // Created and migrated here; its pool stays open (idle) until the product stops, then the database is dropped.
      const db = await openFreshPostgres(adminUrl, 'benchw');
      try {
        const served = await startWritingProduct(standin.baseURL, standin.apiKey, { DATABASE_URL: db.url });
        try {
          onPostgres = await concurrentTasks(served);
        } finally {
          await served.stop();
        }
      } finally {
        await db.close();
      }
    }
    const line = (c: Awaited<ReturnType<typeof concurrentTasks>>) => `p95 ${c.firstTextP95Ms} ms, p50 ${c.firstTextP50Ms} ms, ${c.errors} errors`;
    const out: Figure[] = [
      { id: 'first-text', value: `+${first.addedMs} ms (${first.ours} ms vs ${first.direct} ms direct)`, pass: first.addedMs <= 10 },
      { id: 'concurrent-first-text', value: `${line(onPglite)} (PGlite)`, pass: onPglite.pass },
      onPostgres
        ? { id: 'concurrent-first-text-pg', value: `${line(onPostgres)} (PostgreSQL)`, pass: onPostgres.pass }
        : { id: 'concurrent-first-text-pg', value: 'not measured (no BENCH_DATABASE_URL / TEST_DATABASE_URL)', pass: false },
    ];
    return {
      figures: out,
      scenario: 'AI writing stream through the built product vs straight from the OpenAI-compatible stand-in; 200 at once on PGlite and on PostgreSQL',
      timeToFirstTextMs: { ...first, ratio: Number((first.ours / first.direct).toFixed(2)) },
      concurrentPglite: onPglite,
      concurrentPostgres: onPostgres,
      upstreamRequests: standin.received.length,
    };
  } finally {
    await standin.close();
  }
}

function firstsP(xs: number[], p: number) {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(s.length * p))]!);
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
