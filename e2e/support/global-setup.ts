import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_BETA_TRACK } from './fixtures.js';
import { startOpenAiStandin, type ChatRequestBody, type StandinReply } from '../../apps/server/src/test/standins/openai-compatible.js';
import { startXhsCreatorStandin } from '../../apps/server/src/test/standins/xhs-creator/server.js';

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

/** The graphic writer's plan (its prompt asks for a 小红书图文笔记), as a model answers it. */
const STANDIN_PLAN = `\`\`\`json\n${JSON.stringify({
  title: '周末露营清单',
  body: '第一次露营也不慌，清单都在图里。',
  tags: ['露营', '户外'],
  cards: [
    { template: 'cover', heading: '周末露营清单', text: '新手必看', imagePrompt: '', picture: 'card' },
    { template: 'checklist', heading: '装备', text: '帐篷\n睡袋\n营地灯', imagePrompt: '', picture: 'card' },
  ],
})}\n\`\`\``;

/**
 * The agent's side of the model (requests that offer tools), scripted like a model that plans: look at the accounts,
 * write a graphic post on the user's goal, then propose publishing it to the first account (agent.spec.ts).
 */
function agentReply(body: ChatRequestBody): StandinReply {
  const goal = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const results = body.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content || '{}') as Record<string, unknown>);
  const last = body.messages.at(-1)!;
  if (last.role === 'user') return { reasoning: '先看看账号，再写图文。', content: '好的，我先看看你绑定的账号。', toolCalls: [{ name: 'list_accounts', arguments: {} }] };
  const accounts = results.flatMap((r) => (Array.isArray(r.accounts) ? (r.accounts as Array<{ accountId: number }>) : []));
  const task = results.find((r) => typeof r.taskId === 'string');
  if (!task) return { content: '开始写一篇图文笔记。', toolCalls: [{ name: 'write_graphic', arguments: { content: goal } }] };
  if (accounts[0])
    return { content: '写好后发布到你的账号，请确认。', toolCalls: [{ name: 'schedule_publish', arguments: { accountIds: [accounts[0].accountId], taskId: task.taskId } }] };
  return { content: '你还没有绑定账号，绑定后我可以帮你发布。' };
}

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
  // E2E_BUILD=NAME runs a private build (scripts/build-private.sh NAME) instead of dist/.
  const dist = process.env.E2E_BUILD ? `dist-${process.env.E2E_BUILD}` : 'dist';
  const main = path.join(root, `apps/server/${dist}/main.js`);
  const webDist = path.join(root, `apps/web/${dist}`);
  if (!existsSync(main) || !existsSync(path.join(webDist, 'index.html'))) {
    throw new Error('Build first: npm run build');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkstone-e2e-'));
  // The flag payload the server evaluates: agent-state is on only for users who chose the track no other spec uses
  // (routes.spec.ts turns it on through the real SDK and the server's remote evaluation, without a stub).
  const featuresFile = path.join(dataDir, 'features.json');
  writeFileSync(
    featuresFile,
    JSON.stringify({ 'agent-state': { defaultValue: false, rules: [{ id: 'e2e-track', condition: { tracks: { $in: [AGENT_BETA_TRACK] } }, force: true }] } }),
  );
  let output = '';
  // A configured model next to the offline writer (which stays the default, so other specs see no change).
  // It answers slowly on purpose: the writing spec reloads the editor in the middle of its stream.
  const llm = await startOpenAiStandin({ model: 'standin-chat' });
  llm.respond = (body) => {
    if (body.tools) return agentReply(body);
    if (body.messages.at(-1)!.content.includes('小红书图文笔记')) return { content: STANDIN_PLAN, chunkChars: 40 };
    return { content: STANDIN_ARTICLE, chunkChars: 6, delayMs: 200 };
  };
  // The data dashboards' today is fixed three days after the real one (Asia/Shanghai): data.spec publishes notes today,
  // moves the sandbox site's clock three days on and asserts the exact figures of the days in between.
  const dataToday = new Date(Date.now() + 8 * 3600_000 + 3 * 86_400_000).toISOString().slice(0, 10);
  process.env.E2E_DATA_TODAY = dataToday;
  // Xiaohongshu as it is in 2026 (the local page set), beside the embedded 沙箱 site: publish-xiaohongshu.spec.ts binds
  // and publishes there through the server's own browser; specs reach its test hooks at E2E_XHS_URL.
  const xhs = await startXhsCreatorStandin({ generation: '2026' });
  process.env.E2E_XHS_URL = xhs.url;
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      WEB_DIST_DIR: webDist,
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
      XHS_CREATOR_URL: xhs.url,
      XHS_EDITH_URL: xhs.url,
      // Specs drive the sandbox creator site's failure switch and read its notes (/sandbox-platform/api/_control, _notes).
      SANDBOX_HOOKS: '1',
      DATA_TODAY: dataToday,
      FEATURES_FILE: featuresFile,
      // The download modal appears only with a configured download page (modals.spec.ts opens it).
      APP_DOWNLOAD_URL: 'https://download.example.com/inkstone',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The server's whole output (warnings and errors at LOG_LEVEL=warn) is kept in a file and its tail printed at the end:
  // a spec that fails on the server side otherwise leaves no trace of why.
  const logFile = path.join(root, 'test-results', 'e2e-server.log');
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-20_000);
    log.write(b);
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
    log.end();
    if (output.trim()) console.log(`\n--- e2e server output (last ${Math.min(output.length, 8_000)} characters; all of it in ${logFile}) ---\n${output.slice(-8_000)}`);
    rmSync(dataDir, { recursive: true, force: true });
    await llm.close();
    await xhs.close();
  };
}
