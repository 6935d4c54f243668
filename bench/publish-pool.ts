import { readFileSync, readdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import formbody from '@fastify/formbody';
import { pino } from 'pino';
import { BrowserPool } from '../apps/server/src/browser/pool.js';
import { SandboxSite } from '../apps/server/src/integrations/platforms/sandbox-site.js';
import { SandboxPlatformAdapter } from '../apps/server/src/integrations/platforms/sandbox.js';

const NOTES = Number(process.env.BENCH_NOTES ?? 10);

export const figures = ['browser-pool'] as const;
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const log = pino({ level: 'silent' });

/** RSS of this process and all its descendants (the browser's processes), in MB. */
function treeRssMb(): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      rss.set(Number(e), Number(fields[21]) * 4096);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(e)]);
    } catch {
      // Gone meanwhile.
    }
  }
  let total = 0;
  const stack = [process.pid];
  while (stack.length) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total / 1024 / 1024;
}

async function measure(fn: () => Promise<void>) {
  let peak = treeRssMb();
  const timer = setInterval(() => (peak = Math.max(peak, treeRssMb())), 100);
  const start = performance.now();
  try {
    await fn();
  } finally {
    clearInterval(timer);
  }
  const totalMs = performance.now() - start;
  return { totalMs: Math.round(totalMs), perNoteMs: Math.round(totalMs / NOTES), peakRssMb: Math.round(Math.max(peak, treeRssMb())) };
}

/** Publishing 10 notes to the sandbox platform through the warm pool vs launching a browser per note. */
export async function run() {
  const site = new SandboxSite('http://127.0.0.1:1', null);
  const app = Fastify();
  await app.register(formbody);
  await app.register(site.routes());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const shots = mkdtempSync(path.join(tmpdir(), 'bench-shots-'));
  const newPool = () => new BrowserPool({ executablePath: '/usr/bin/chromium', maxConcurrent: 1, idleMs: 600_000, screenshotDir: shots, log });
  const content = (i: number, kind: string) => ({ title: `${kind}笔记${i}`, body: '性能测试正文，第一段。\n第二段。', images: [PNG], topics: ['测试'] });
  const mark = async () => undefined;

  // One login, shared by both runs (the session is what a bound account stores).
  const loginPool = newPool();
  const loginAdapter = new SandboxPlatformAdapter(loginPool, () => base);
  const start = await loginAdapter.startLogin('bench', {});
  const { scanUrl } = JSON.parse(start.state) as { scanUrl: string };
  const ticket = new URL(scanUrl).searchParams.get('ticket')!;
  await fetch(scanUrl);
  await fetch(`${base}/sandbox-platform/m/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ticket, identity: '压测账号' }).toString(),
  });
  for (let i = 0; i < 50 && (await loginAdapter.pollLogin(start.state)).scanState !== 'confirmed'; i++) await new Promise((r) => setTimeout(r, 200));
  const { session } = await loginAdapter.completeLogin(start.state);
  await loginPool.close();

  try {
    const baseline = await measure(async () => {
      for (let i = 0; i < NOTES; i++) {
        const pool = newPool();
        try {
          await new SandboxPlatformAdapter(pool, () => base).publish('1', session, content(i, '冷启动'), { beforeSubmit: mark });
        } finally {
          await pool.close();
        }
      }
    });
    // Warm: the browser is up and the account's context exists, as in a publisher that has published before. The note
    // that warms it is not timed; a launch is what the baseline pays per note.
    const warmPool = newPool();
    const adapter = new SandboxPlatformAdapter(warmPool, () => base);
    const warmUp = await measure(async () => {
      await adapter.publish('1', session, content(0, '预热'), { beforeSubmit: mark });
    });
    const warm = await measure(async () => {
      for (let i = 0; i < NOTES; i++) await adapter.publish('1', session, content(i, '复用'), { beforeSubmit: mark });
    });
    const launches = warmPool.stats().launches;
    await warmPool.close();
    const published = site.notes().length;
    if (published !== NOTES * 2 + 1) throw new Error(`expected ${NOTES * 2 + 1} notes on the sandbox site, found ${published}`);
    const speedup = Number((baseline.totalMs / warm.totalMs).toFixed(2));
    return {
      figures: [{ id: 'browser-pool', value: `${speedup}x (${warm.perNoteMs} vs ${baseline.perNoteMs} ms a note)`, pass: speedup >= 3 }],
      scenario: `publish ${NOTES} notes to the sandbox platform: warm pool (one chromium already up, context reused; the untimed note that warmed it is warmUpNoteMs) vs a browser launched per note`,
      ours: { ...warm, browserLaunches: launches, warmUpNoteMs: warmUp.totalMs },
      baseline: { ...baseline, browserLaunches: NOTES },
      speedup,
      peakMemoryRatio: Number((warm.peakRssMb / baseline.peakRssMb).toFixed(2)),
    };
  } finally {
    await app.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
