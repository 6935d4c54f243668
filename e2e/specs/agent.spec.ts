import { test, expect, apiLogin, flagOn, seedSession, type Session } from '../support/fixtures.js';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { OwnServer } from '../support/own-server.js';

/**
 * The agent against the real server: the model stand-in (e2e/support/global-setup.ts) plans like a model — list the
 * accounts, write a graphic post, propose publishing it — while the writing task, the confirm and the publish to the
 * embedded 沙箱 creator site are all real. With the flag off, a notification click lands on the operation board.
 */

/** Binds a 沙箱 account through the same API calls the bind dialog makes (the phone's confirm included). */
async function bindSandboxByApi(request: APIRequestContext, s: Session, identity: string): Promise<number> {
  const headers = { [s.tokenName]: s.tokenValue };
  const conn = await (await request.post('/publish-api/chrome/login/connect', { headers, data: { platform: 'sandbox' } })).json();
  expect(conn.code, JSON.stringify(conn)).toBe(0);
  const connectionId = conn.data.connectionId as string;
  let scanUrl = '';
  await expect
    .poll(
      async () => {
        const r = await (await request.get(`/publish-api/chrome/login/code/scan?connectionId=${connectionId}`, { headers })).json();
        scanUrl = r.data?.scanUrl ?? '';
        return scanUrl;
      },
      { timeout: 30_000 },
    )
    .not.toBe('');
  const ticket = new URL(scanUrl, 'http://x').searchParams.get('ticket')!;
  const phone = await request.post('/sandbox-platform/m/confirm', { form: { ticket, identity } });
  expect(await phone.text()).toContain('已确认登录');
  await expect
    .poll(async () => (await (await request.get(`/publish-api/chrome/login/code/scan?connectionId=${connectionId}`, { headers })).json()).data?.scanState, { timeout: 30_000 })
    .toBe('confirmed');
  expect((await (await request.get(`/publish-api/chrome/login/cookie?connectionId=${connectionId}`, { headers })).json()).code).toBe(0);
  const bound = await (await request.post('/api/publish/v4/account/bind', { headers, data: { connectionId } })).json();
  expect(bound.code, JSON.stringify(bound)).toBe(0);
  return bound.data.id as number;
}

test('flag on: the agent home takes a goal, the article streams, publishing waits for 确认 and the note exists', async ({ page, request }) => {
  test.setTimeout(240_000);
  const s = await apiLogin(request);
  await bindSandboxByApi(request, s, '智能体测试号');
  await seedSession(page, s);
  await flagOn(page);

  await page.goto('/');
  await expect(page.getByTestId('layout-agent')).toBeVisible();
  await expect(page.getByTestId('page-agentHome')).toBeVisible();
  await expect(page.getByTestId('agent-home-topics')).toBeVisible();
  await page.getByTestId('agent-home-input').fill('帮我写一篇周末露营的小红书图文，发到我的号');
  await page.getByTestId('agent-home-send').click();

  await expect(page).toHaveURL(/\/agent\?c=\d+/);
  await expect(page.getByTestId('layout-standalone')).toBeVisible();
  // The agent's words, the accounts it looked at, then the task it started, streaming into its card.
  await expect(page.getByTestId('agent-thread')).toContainText('我先看看你绑定的账号', { timeout: 30_000 });
  await expect(page.getByTestId('agent-accounts-card')).toContainText('智能体测试号');
  const task = page.getByTestId('agent-task-card');
  await expect(task).toBeVisible({ timeout: 30_000 });
  await expect(task.getByTestId('agent-task-text')).not.toBeEmpty();
  await expect(task).toHaveAttribute('data-status', 'done', { timeout: 90_000 });
  await expect(task.getByTestId('agent-task-title')).toHaveText('周末露营清单');
  await expect(task.getByTestId('agent-task-open')).toHaveAttribute('href', /\/xhsEditor\?taskId=/);

  // Publishing is only proposed: nothing reaches the creator site until 确认.
  const action = page.getByTestId('agent-action-card');
  await expect(action).toHaveAttribute('data-status', 'pending', { timeout: 30_000 });
  await expect(action.getByTestId('agent-action-summary')).toContainText('智能体测试号');
  const notes = async () => ((await (await request.get('/sandbox-platform/api/_notes')).json()).data.notes as Array<{ title: string }>).filter((n) => n.title === '周末露营清单');
  const before = (await notes()).length;
  await action.getByTestId('agent-confirm').click();
  await expect(action).toHaveAttribute('data-status', 'confirmed');
  await expect.poll(async () => (await notes()).length, { timeout: 120_000, intervals: [1000] }).toBe(before + 1);

  // The conversation is kept: it is listed, and reopening it shows the same cards.
  await page.getByTestId('agent-new').click();
  await expect(page.getByTestId('agent-conversation')).toHaveCount(1);
  await page.getByTestId('agent-conversation').locator('.agent-conversation-title').click();
  await expect(page.getByTestId('agent-action-card')).toHaveAttribute('data-status', 'confirmed');
});

test('flag off: a comment notification click lands on the operation board in the main layout', async ({ page, request }) => {
  test.setTimeout(120_000);
  const s = await apiLogin(request);
  await bindSandboxByApi(request, s, '看板测试号');
  await seedSession(page, s);
  await page.goto('/topic');
  await expect(page.getByTestId('layout-main')).toBeVisible();
  // What the service worker sends the page when the user clicks the notification (public/sw.js notificationclick).
  await page.evaluate(() => navigator.serviceWorker.dispatchEvent(new MessageEvent('message', { data: { type: 'NAVIGATE_TO', url: '/operationBoard' } })));
  await expect(page).toHaveURL(/\/operationBoard\/\d+$/);
  await expect(page.getByTestId('layout-main')).toBeVisible();
  await expect(page.getByTestId('page-operationBoard')).toContainText('看板测试号');
  await expect(page.getByTestId('board-unread')).toBeVisible();
});

test('without a model the agent page and the agent home say so and offer the guided flows', async ({ browser }) => {
  test.setTimeout(120_000);
  // A server of its own with no LLM_MODELS: only the offline writer, which never stands in for the agent.
  const srv = new OwnServer();
  try {
    await srv.start();
    const api = await playwrightRequest.newContext({ baseURL: srv.baseURL });
    const s = await apiLogin(api);
    const context = await browser.newContext({ baseURL: srv.baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
    const page = await context.newPage();
    await seedSession(page, s);
    await flagOn(page);
    await page.goto('/');
    await expect(page.getByTestId('page-agentHome').getByTestId('agent-unavailable')).toContainText('未配置');
    await expect(page.getByTestId('agent-home-input')).toHaveCount(0);
    await page.goto('/agent');
    const guided = page.getByTestId('agent-unavailable');
    await expect(guided).toContainText('智能体需要配置AI模型，当前未配置');
    await expect(page.getByTestId('agent-input')).toHaveCount(0);
    await guided.getByTestId('agent-guide-topic').click();
    await expect(page.getByTestId('page-topic')).toBeVisible();
    // Nothing was sent, so nothing was stored.
    const list = await (await api.get('/api/agent/conversations', { headers: { [s.tokenName]: s.tokenValue } })).json();
    expect(list).toMatchObject({ code: 0, data: [] });
    await context.close();
    await api.dispose();
  } finally {
    await srv.dispose();
  }
});
