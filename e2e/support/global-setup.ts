import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOpenAiStandin } from '../../apps/server/src/test/standins/openai-compatible.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const STANDIN_ARTICLE = [
  '# 春日骑行指南',
  '',
  '春天适合骑行。这是模拟模型按固定脚本返回的文章，用来验证流式写作、断线续传与编辑器。',
  '',
  '## 出发前的准备',
  '',
  '- 检查刹车与胎压',
  '- 带上水和简单的补给',
  '',
  '## 路线选择',
  '',
  '选择车流少、风景好的河边绿道，全程控制在三十公里以内，留出拍照和休息的时间。',
  '',
  '## 结语',
  '',
  '慢一点骑，看见的风景会更多。模拟模型输出到此结束。',
].join('\n');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: { exitCode: number | null }, logs: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${logs()}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not become healthy:\n${logs()}`);
}

export default async function globalSetup() {
  const main = path.join(root, 'apps/server/dist/main.js');
  if (!existsSync(main) || !existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    throw new Error('Build first: npm run build');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkstone-e2e-'));
  let output = '';
  // A configured model next to the offline writer (which stays the default, so other specs see no change).
  // It answers slowly on purpose: the writing spec reloads the editor in the middle of its stream.
  const llm = await startOpenAiStandin({ model: 'standin-chat' });
  llm.respond = () => ({ content: STANDIN_ARTICLE, chunkChars: 6, delayMs: 200 });
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_ANON_PER_MINUTE: '100000',
      TRUST_PROXY: 'true',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LLM_MODELS: JSON.stringify([{ id: 'standin', label: '模拟模型（测试替身）', baseURL: llm.baseURL, model: 'standin-chat', apiKey: llm.apiKey }]),
      LLM_DEFAULT_MODEL: 'offline',
      // Comments reach the unread counts through the engagement job (5 min by default): a fan
      // comment in publish.spec.ts must show up within a test's time.
      PUBLISH_ENGAGEMENT_INTERVAL_MS: '3000',
      // Specs drive the sandbox creator site's failure switch and read its notes (/sandbox-platform/api/_control, _notes).
      SANDBOX_HOOKS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baseUrl, child, () => output);
  process.env.E2E_BASE_URL = baseUrl;

  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
    await llm.close();
  };
}
