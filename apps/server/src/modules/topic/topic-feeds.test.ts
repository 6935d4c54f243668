import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TopicHotPage } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { openFreshPostgres, describeOnDatabases } from '../../test/database.js';
import { runScript } from '../../test/process.js';
import { startTrendsStandin, type TrendsStandin } from '../../test/standins/trends.js';
import { commands } from '../../cli/commands.js';
import { REFRESH_JOB } from './topic.module.js';

/** Feeds an operator adds with the admin CLI: stored, validated, and fetched by the scheduled refresh. */

type Listed = Array<{
  id: number | null;
  source: string;
  name: string;
  url: string | null;
  track: string | null;
  enabled: boolean;
  origin: string;
  lastFetchedAt: string | null;
  ok: boolean | null;
  error: string | null;
  itemCount: number;
}>;

describeOnDatabases('feeds an operator adds, on %s', (dbKind) => {
  let t: TestApp;
  let s: TrendsStandin;
  let token: string;

  beforeAll(async () => {
    s = await startTrendsStandin();
    s.weibo = [{ title: '配置来源的热搜', heat: 1_000_000 }];
    s.feed = [{ title: '运营添加的订阅：新一代显卡评测', link: 'https://news.example.cn/a/9', summary: '显卡性能对比', date: new Date(Date.now() - 3600_000).toISOString() }];
    t = await startTestApp({ db: dbKind, env: { TRENDS_SOURCES: `weibo=${s.url}`, SAFE_FETCH_ALLOW_HOSTS: s.host, RATE_LIMIT_PER_MINUTE: '100000' } });
    token = (await loginByPhone(t)).tokenValue;
  });
  afterAll(async () => {
    await t?.close();
    await s?.close();
  });

  const run = (name: string, args: Record<string, string>) => commands[name]!.run(t.container, args);
  const refreshTick = async (id: string) => {
    // The scheduled job itself, as a tick of the queue runs it; each tick is past every source's minimum interval.
    t.clock.advance(20 * 60_000);
    const before = (await run('topic:sources', {})) as Listed;
    await t.container.jobs.enqueue(REFRESH_JOB, {}, { jobId: id });
    const deadline = Date.now() + 20_000;
    const last = (l: Listed, source: string) => l.find((x) => x.source === source)?.lastFetchedAt ?? null;
    while (Date.now() < deadline) {
      const now = (await run('topic:sources', {})) as Listed;
      // Done when every enabled source has a new fetch time (states are written one source after another).
      if (now.filter((x) => x.enabled).every((x) => last(now, x.source) !== null && last(now, x.source) !== last(before, x.source))) return now;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('refresh tick did not run');
  };

  it('add is validated: http(s) only, a name, a known system track, no duplicates (of an added or a configured source)', async () => {
    await expect(run('topic:source:add', { url: 'ftp://example.com/rss.xml', name: 'x' })).rejects.toThrow('订阅源地址 --url 必须是 http(s) 网址');
    await expect(run('topic:source:add', { url: 'javascript:alert(1)', name: 'x' })).rejects.toThrow('http(s)');
    await expect(run('topic:source:add', { url: 'not a url', name: 'x' })).rejects.toThrow('http(s)');
    await expect(run('topic:source:add', { url: `${s.url}/feed.xml` })).rejects.toThrow('--name');
    await expect(run('topic:source:add', { url: `${s.url}/feed.xml`, name: '名'.repeat(31) })).rejects.toThrow('最多30个字');
    await expect(run('topic:source:add', { url: `${s.url}/feed.xml`, name: '示例', track: '不存在的赛道' })).rejects.toThrow('不是系统赛道');
    await expect(run('topic:source:enable', { id: 'abc' })).rejects.toThrow('--id 必须是正整数');
    await expect(run('topic:source:disable', { id: '99999' })).rejects.toThrow('不存在');
    const added = (await run('topic:source:add', { url: `${s.url}/feed.xml`, name: '运营订阅', track: '科技数码' })) as { id: number; enabled: boolean };
    expect(added).toMatchObject({ url: `${s.url}/feed.xml`, name: '运营订阅', track: '科技数码', enabled: true });
    await expect(run('topic:source:add', { url: `${s.url}/feed.xml`, name: '再来一次' })).rejects.toThrow('已经添加过了');
    const listed = (await run('topic:sources', {})) as Listed;
    expect(listed.map((l) => [l.source, l.origin, l.enabled])).toEqual([
      ['weibo', 'TRENDS_SOURCES', true],
      [`feed:${s.url}/feed.xml`, 'admin', true],
    ]);
  });

  it('the scheduled refresh fetches an added feed under its name and track; disabled it is not fetched; removed it is gone', async () => {
    const [feed] = ((await run('topic:sources', {})) as Listed).filter((l) => l.origin === 'admin');
    const feedPath = () => s.received.filter((p) => p === '/feed.xml').length;
    const n0 = feedPath();
    const after = await refreshTick('feeds-1');
    expect(feedPath()).toBe(n0 + 1);
    expect(after.find((l) => l.id === feed!.id)).toMatchObject({ ok: true, itemCount: 1, error: null });

    const page = (await t.call<TopicHotPage>('GET', '/topic/v3/hot', { token, query: { source: feed!.source, pageSize: 50 } })).data;
    expect(page.records.map((r) => r.title)).toEqual(['运营添加的订阅：新一代显卡评测']);
    // The operator's name, not the feed's own title; the operator's track on top of the keyword rules.
    expect(page.records[0]!.sources[0]).toMatchObject({ source: feed!.source, sourceName: '运营订阅' });
    expect(page.records[0]!.tracks).toContain('科技数码');
    expect(page.sources.map((x) => x.source)).toEqual(['weibo', feed!.source]);
    expect((await t.call<TopicHotPage>('GET', '/topic/v3/hot', { token, query: { track: '科技数码' } })).data.records.map((r) => r.title)).toContain(
      '运营添加的订阅：新一代显卡评测',
    );

    expect(await run('topic:source:disable', { id: String(feed!.id) })).toMatchObject({ enabled: false });
    await refreshTick('feeds-2');
    expect(feedPath()).toBe(n0 + 1);
    expect(await run('topic:source:enable', { id: String(feed!.id) })).toMatchObject({ enabled: true });
    await refreshTick('feeds-3');
    expect(feedPath()).toBe(n0 + 2);

    expect(await run('topic:source:remove', { id: String(feed!.id) })).toMatchObject({ id: feed!.id });
    expect(((await run('topic:sources', {})) as Listed).map((l) => l.source)).toEqual(['weibo']);
    await refreshTick('feeds-4');
    expect(feedPath()).toBe(n0 + 2);
    await expect(run('topic:source:remove', { id: String(feed!.id) })).rejects.toThrow('不存在');
  });

  it('an added feed on our own network is refused when fetched (SSRF rules), and the refusal is shown in its state', async () => {
    // Port 9 of loopback is not on SAFE_FETCH_ALLOW_HOSTS: the SSRF-safe client refuses it as an inner address.
    const added = (await run('topic:source:add', { url: 'http://127.0.0.1:9/rss.xml', name: '内网' })) as { id: number };
    const after = await refreshTick('feeds-ssrf');
    expect(after.find((l) => l.id === added.id)).toMatchObject({ ok: false, error: '地址指向内网地址，已拒绝', itemCount: 0 });
    await run('topic:source:remove', { id: String(added.id) });
  });
});

/** The same commands through the real CLI entry (`npm run admin -- ...`, admin.ts in its own process). */
describeOnDatabases('topic:source commands through the admin CLI on %s', (dbKind) => {
  let s: TrendsStandin;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    s = await startTrendsStandin();
    s.feed = [{ title: '命令行添加的订阅条目', link: 'https://news.example.cn/cli/1', date: new Date(Date.now() - 600_000).toISOString() }];
    const base = { APP_SECRET_KEY: 'ef'.repeat(32), TRENDS_SOURCES: '', SAFE_FETCH_ALLOW_HOSTS: s.host };
    if (dbKind === 'pglite') {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'inkstone-cli-feeds-'));
      env = { ...base, DATA_DIR: dataDir };
      cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
    } else {
      const db = await openFreshPostgres(process.env.TEST_DATABASE_URL!, 'cli');
      env = { ...base, DATABASE_URL: db.url };
      cleanup = () => db.close();
    }
  });
  afterAll(async () => {
    await cleanup?.();
    await s?.close();
  });

  const admin = async (...args: string[]) => {
    const p = runScript('admin.ts', args, env);
    const { code } = await p.exited;
    // LOG_LEVEL=warn still lets a refused fetch's warning through on stderr; the result is the JSON after it.
    const out = p.output();
    return { code, out: out.slice(Math.max(0, out.search(/^[[{]/m))) };
  };

  it('add (validated, exit 1 with the reason), list, refresh fetches it, disable, remove', async () => {
    const bad = await admin('topic:source:add', '--url', 'ftp://example.com/x.xml', '--name', '坏的');
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('订阅源地址 --url 必须是 http(s) 网址');

    const add = await admin('topic:source:add', '--url', `${s.url}/feed.json`, '--name', '命令行订阅', '--track', '科技数码');
    expect(add.code, add.out).toBe(0);
    const row = JSON.parse(add.out) as { id: number; url: string; enabled: boolean };
    expect(row).toMatchObject({ url: `${s.url}/feed.json`, enabled: true });

    const refresh = await admin('topic:refresh');
    expect(refresh.code, refresh.out).toBe(0);
    expect(JSON.parse(refresh.out) as { fetched: string[]; inserted: number }).toMatchObject({ fetched: [`feed:${s.url}/feed.json`], inserted: 1 });
    expect(s.received).toContain('/feed.json');

    const disable = await admin('topic:source:disable', '--id', String(row.id));
    expect(disable.code, disable.out).toBe(0);
    const list = await admin('topic:sources');
    expect(JSON.parse(list.out)).toEqual([expect.objectContaining({ id: row.id, name: '命令行订阅', track: '科技数码', enabled: false, origin: 'admin', ok: true, itemCount: 1 })]);

    const remove = await admin('topic:source:remove', '--id', String(row.id));
    expect(remove.code, remove.out).toBe(0);
    expect(JSON.parse(remove.out)).toMatchObject({ id: row.id });
    // Each run opens the database afresh (PGlite under DATA_DIR takes seconds on a loaded machine).
  }, 400_000);
});
