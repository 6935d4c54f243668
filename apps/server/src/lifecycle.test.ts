import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskInfo } from '@inkstone/shared';
import { openFreshPostgres, describeOnDatabases } from './test/database.js';
import { startOpenAiStandin, type ChatRequestBody, type OpenAiStandin } from './test/standins/openai-compatible.js';
import { apiCall, loginOn, runScript, startServer, type ServerProc } from './test/process.js';

/**
 * The server as a process: start-up refusals, SIGTERM, kill -9 and the admin CLI beside a running server.
 * Each start of `node --import tsx main.ts` takes seconds on a busy machine, so one scenario per database walks
 * through several restarts of the same data.
 */

let phoneN = 0;
const phone = () => `137${String(process.pid % 1e4).padStart(4, '0')}${String(++phoneN).padStart(4, '0')}`;
const ARTICLE_PROMPT = '写一篇关于城市骑行通勤的短文';
const isTitle = (b: ChatRequestBody) => b.messages.at(-1)!.content.includes('个标题');
const isArticle = (b: ChatRequestBody) => b.messages.at(-1)!.content.includes(ARTICLE_PROMPT);

async function score(base: string, token: string) {
  return (await apiCall<{ score: number }>(base, 'GET', '/vip/user/score', { token })).data.score;
}

async function taskInfo(base: string, token: string, taskId: string) {
  return (await apiCall<TaskInfo>(base, 'GET', '/mp/task/info', { token, query: { taskId } })).data;
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Reads an SSE response to its end; rejects on a reset. */
async function readToEnd(url: string, token: string): Promise<string> {
  const res = await fetch(url, { headers: { 'inkstone-token': token } });
  return res.text();
}

/** Mounts a small tmpfs at `dir`; false where this process may not mount (not root, unprivileged container). */
function mountTmpfs(dir: string, opts: string): boolean {
  try {
    mkdirSync(dir);
    execFileSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('start-up refusals', () => {
  it('an unusable DATA_DIR (path through a file; full or read-only where a tmpfs can be mounted; read-only dir as non-root) is reported in Chinese with its path, exit 1, no stack trace', async () => {
    // Tests may run as root, where a read-only mode bit does not stop writes; a path through a regular file
    // fails for every user (ENOTDIR). As non-root, a read-only directory is checked as well.
    const base = mkdtempSync(path.join(tmpdir(), 'inkstone-ro-'));
    try {
      writeFileSync(path.join(base, 'file.txt'), 'x');
      const dataDir = path.join(base, 'file.txt', 'sub');
      const p = runScript('main.ts', [], { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
      const { code } = await p.exited;
      expect(code).toBe(1);
      expect(p.output()).toContain(`无法创建数据目录 ${dataDir}`);
      expect(p.output()).toContain('路径中有一段是文件而不是目录');
      expect(p.output()).not.toMatch(/\n\s+at /);
      if (process.getuid?.() === 0 && mountTmpfs(path.join(base, 'tiny'), 'size=256k')) {
        // Root that may mount (a privileged container): a real full file system, then a real read-only one.
        const tiny = path.join(base, 'tiny');
        try {
          const full = runScript('main.ts', [], { DATA_DIR: path.join(tiny, 'data'), PORT: '0', HOST: '127.0.0.1' });
          expect((await full.exited).code).toBe(1);
          expect(full.output()).toContain('磁盘空间已满');
          expect(full.output()).not.toMatch(/\n\s+at /);
          execFileSync('mount', ['-o', 'remount,ro', tiny]);
          const ro = runScript('main.ts', [], { DATA_DIR: path.join(tiny, 'other'), PORT: '0', HOST: '127.0.0.1' });
          expect((await ro.exited).code).toBe(1);
          expect(ro.output()).toContain(`无法创建数据目录 ${path.join(tiny, 'other')}`);
          expect(ro.output()).toContain('所在文件系统为只读');
        } finally {
          execFileSync('umount', [tiny]);
        }
      }
      if (process.getuid?.() !== 0) {
        const ro = path.join(base, 'ro');
        mkdirSync(ro);
        chmodSync(ro, 0o500);
        const q = runScript('main.ts', [], { DATA_DIR: path.join(ro, 'data'), PORT: '0', HOST: '127.0.0.1' });
        expect((await q.exited).code).toBe(1);
        expect(q.output()).toContain('没有写入权限');
        expect(q.output()).not.toMatch(/\n\s+at /);
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }, 300_000);
});

describeOnDatabases('server process on %s', (dbKind) => {
  let standin: OpenAiStandin;
  let dataDir: string;
  let pgClose: (() => Promise<void>) | null = null;
  let env: Record<string, string>;
  const servers: ServerProc[] = [];
  /** Article replies crawl while a signal is due, and hurry once the task is to be finished. */
  let articleDelayMs = 150;
  const start = async () => {
    const s = await startServer(env);
    servers.push(s);
    return s;
  };

  beforeAll(async () => {
    standin = await startOpenAiStandin({ model: 'standin-chat' });
    // Slow enough that requests and tasks are in flight when the signal comes.
    standin.respond = (b) =>
      isTitle(b)
        ? { content: '骑行通勤的三个理由\n早高峰换个方式\n一辆车的自由', chunkChars: 3, delayMs: 120 }
        : { content: '骑行让通勤更健康，也更省钱。'.repeat(40), chunkChars: 4, delayMs: articleDelayMs };
    dataDir = mkdtempSync(path.join(tmpdir(), 'inkstone-life-'));
    env = {
      DATA_DIR: dataDir,
      WELCOME_POINTS: '1000',
      LLM_MODELS: JSON.stringify([{ id: 'standin', label: '模拟模型', baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'standin-chat' }]),
      LLM_DEFAULT_MODEL: 'standin',
      LLM_RETRY_BASE_MS: '1',
    };
    if (dbKind === 'postgres') {
      const db = await openFreshPostgres(process.env.TEST_DATABASE_URL!, 't');
      env.DATABASE_URL = db.url;
      pgClose = () => db.close();
    }
  });
  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    await standin?.close();
    await pgClose?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('SIGTERM: in-flight requests get their whole envelope, the running task is put back (not failed, not refunded) and resumes after restart; exit within 10 s; after kill -9 the restart takes the lock and resumes the task within 15 s', async () => {
    const s1 = await start();
    const userPhone = phone();
    const token = await loginOn(s1.url, userPhone);
    const before = await score(s1.url, token);

    if (dbKind === 'pglite') {
      // A second server on the same DATA_DIR is refused and names the first.
      const second = runScript('main.ts', [], { ...env, PORT: '0', HOST: '127.0.0.1' });
      expect((await second.exited).code).toBe(1);
      expect(second.output()).toContain(`数据目录 ${dataDir} 正被另一个进程（pid ${s1.pid}，启动于`);
      // So is the admin CLI: it must never report a grant the server would not see.
      const cli = runScript('admin.ts', ['points:grant', '--phone', '13700000000', '--amount', '100', '--reason', '补偿'], env);
      expect((await cli.exited).code).not.toBe(0);
      expect(cli.output()).toContain('正被另一个进程');
      expect(cli.output()).not.toContain('"balance"');
    }

    const created = await apiCall<{ taskId: string }>(s1.url, 'POST', '/mp/task/create', {
      token,
      body: { createType: 'article', writeType: 'quick', content: ARTICLE_PROMPT, modelConfigType: 'standin' },
    });
    expect(created.code).toBe(0);
    const { taskId } = created.data;
    const charged = before - (await score(s1.url, token));
    expect(charged).toBeGreaterThan(0);
    const stream = readToEnd(`${s1.url}/api/mp/task/stream/${taskId}`, token);
    await waitFor('text streamed', async () => (await taskInfo(s1.url, token, taskId)).text.length > 0, 60_000);

    const seen = standin.received.length;
    const titles = Array.from({ length: 17 }, () =>
      apiCall<{ titles: string[] }>(s1.url, 'POST', '/writing/title/generate', { token, body: { content: '城市骑行通勤的好处很多。', count: 3, modelConfigType: 'standin' } }).then(
        (r) => r,
        (err: unknown) => ({ transportError: String((err as Error).cause ?? err) }),
      ),
    );
    await waitFor('all title requests at the model', async () => standin.received.slice(seen).filter(isTitle).length >= 17, 60_000);
    const signalledAt = Date.now();
    s1.child.kill('SIGTERM');
    articleDelayMs = 5;
    const replies = await Promise.all(titles);
    const exit = await s1.exited;
    const tookMs = Date.now() - signalledAt;
    expect(replies.filter((r) => 'transportError' in r)).toEqual([]);
    for (const r of replies) expect(r).toMatchObject({ code: 0, msg: expect.any(String), data: { titles: expect.any(Array) } });
    expect(exit).toEqual({ code: 0, signal: null });
    expect(tookMs).toBeLessThan(10_000);
    // The event stream ended cleanly (no reset), after saying the task continues after the restart.
    const sse = await stream;
    expect(sse).toContain('服务正在重启，任务将在重启后自动继续');
    expect(sse).not.toContain('event: error');

    if (dbKind === 'pglite') {
      // With the server stopped the CLI may write, and says so only when it did.
      const cli = runScript('admin.ts', ['points:grant', '--phone', userPhone, '--amount', '100', '--reason', '补偿'], env);
      const { code } = await cli.exited;
      expect(cli.output()).toContain('balance');
      expect(code).toBe(0);
    }

    // Recovery runs while the server gets ready, so count model calls from before the start.
    const resumedFrom = standin.received.length;
    const s2 = await start();
    await waitFor('task resumed', async () => standin.received.slice(resumedFrom).some(isArticle), 15_000);
    const done = await waitFor(
      'task final',
      async () => {
        const i = await taskInfo(s2.url, token, taskId);
        return i.status === 'succeeded' || i.status === 'failed' ? i : undefined;
      },
      60_000,
    );
    expect(done.status).toBe('succeeded');
    // Charged once, never refunded; the CLI's grant (PGlite) is there after the restart.
    expect(await score(s2.url, token)).toBe(before - charged - 17 * 1 + (dbKind === 'pglite' ? 100 : 0));

    // kill -9 mid-task: the restarted server takes over at once (lock and task), the task resumes within 15 s.
    const again = await apiCall<{ taskId: string }>(s2.url, 'POST', '/mp/task/create', {
      token,
      body: { createType: 'article', writeType: 'quick', content: ARTICLE_PROMPT, modelConfigType: 'standin' },
    });
    const t2 = again.data.taskId;
    articleDelayMs = 150;
    const balanceAfterCharge = await score(s2.url, token);
    await waitFor('text streamed', async () => (await taskInfo(s2.url, token, t2)).text.length > 0, 60_000);
    s2.child.kill('SIGKILL');
    await s2.exited;
    articleDelayMs = 5;
    const from = standin.received.length;
    const s3 = await start();
    await waitFor('killed task resumed', async () => standin.received.slice(from).some(isArticle), 15_000);
    const resumedMs = Date.now() - s3.readyAt;
    expect(resumedMs).toBeLessThan(15_000);
    const final = await waitFor(
      'task final',
      async () => {
        const i = await taskInfo(s3.url, token, t2);
        return i.status === 'succeeded' || i.status === 'failed' ? i : undefined;
      },
      60_000,
    );
    expect(final.status).toBe('succeeded');
    expect(await score(s3.url, token)).toBe(balanceAfterCharge);
    s3.child.kill('SIGTERM');
    expect((await s3.exited).code).toBe(0);
  }, 400_000);
});
