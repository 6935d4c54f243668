import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';

const control = (t: TestApp) =>
  fetch(`${t.url}/sandbox-platform/api/_control`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ slowMs: 0 }) });
const notes = (t: TestApp) => fetch(`${t.url}/sandbox-platform/api/_notes`);

describe('sandbox creator site', () => {
  let dev: TestApp;
  let hooked: TestApp;
  beforeAll(async () => {
    // A demo or developer server: the site is there, its test hooks are not.
    dev = await startTestApp({ env: { NODE_ENV: 'development' } });
    hooked = await startTestApp({ env: { NODE_ENV: 'development', SANDBOX_HOOKS: '1' } });
  });
  afterAll(async () => {
    await dev?.close();
    await hooked?.close();
  });

  it('serves _control and _notes only to tests (NODE_ENV=test) or with SANDBOX_HOOKS=1', async () => {
    expect((await control(dev)).status).toBe(404);
    // A GET of an unknown page falls through to the web app's index.html when it is built: no notes either way.
    const closed = await notes(dev);
    expect(closed.headers.get('content-type')).not.toContain('json');
    expect(await closed.text()).not.toContain('"notes"');
    // The site itself is still served.
    expect((await fetch(`${dev.url}/sandbox-platform/login`)).status).toBe(200);

    const on = await control(hooked);
    expect(on.status).toBe(200);
    expect(((await on.json()) as { code: number }).code).toBe(0);
    expect(((await (await notes(hooked)).json()) as { data: { notes: unknown[] } }).data.notes).toEqual([]);
  });

  it('a fan comment on an unknown note, even with a non-ASCII id, is a clean 404 page, not a 500', async () => {
    for (const id of [encodeURIComponent('笔记一'), 'n999999']) {
      const res = await fetch(`${dev.url}/sandbox-platform/notes/${id}/comments`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ author: '沙箱粉丝', content: '好看' }).toString(),
        redirect: 'manual',
      });
      expect(res.status, id).toBe(404);
      expect(await res.text()).toContain('笔记不存在');
    }
  });
});
