import Fastify from 'fastify';
import formbody from '@fastify/formbody';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../browser/pool.js';
import { startWechatPublishStandin } from '../../test/standins/wechat-mp-publish.js';
import { startXhsCreatorStandin } from '../../test/standins/xhs-creator/server.js';
import { PNG_DATA_URL, confirmOnPhone, until } from '../../test/publish-helpers.js';
import { createHash } from 'node:crypto';
import { createCardRenderer } from '../cards/index.js';
import { SandboxSite } from './sandbox-site.js';
import { SandboxPlatformAdapter } from './sandbox.js';
import { XiaohongshuAdapter } from './xiaohongshu/adapter.js';
import { WechatMpPublisher } from './wechat-mp.js';
import { ContentRejectedError, SessionExpiredError, UnavailableError, textLength, type AccountProfile, type PlatformAdapter, type SessionBlob } from './types.js';

/** What the suite needs from each platform's remote side besides the adapter. */
interface Harness {
  adapter: PlatformAdapter;
  /** Logs in the way a user would (QR + phone, or API credentials). */
  login(): Promise<{ session: SessionBlob; profile: AccountProfile }>;
  notesTitled(title: string): number;
  /** What the platform shows of a note titled so: the hashes of its images in order (native image notes), or the article's HTML (inline). */
  noteImages(title: string): string[] | string | null;
  rejectNext(): void;
  /** A session the platform no longer accepts. */
  expire(session: SessionBlob): SessionBlob;
  close(): Promise<void>;
}

let pool: BrowserPool;
const log = pino({ level: 'silent' });

const cases: Array<{ name: string; start(): Promise<Harness> }> = [
  {
    name: 'sandbox',
    async start() {
      const site = new SandboxSite('http://127.0.0.1:1', null);
      const app = Fastify();
      await app.register(formbody);
      await app.register(site.routes());
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const adapter = new SandboxPlatformAdapter(pool, () => base);
      return {
        adapter,
        async login() {
          const start = await adapter.startLogin('contract', {});
          expect(start.qrImage).toMatch(/^data:image\/png;base64,/);
          const { scanUrl } = JSON.parse(start.state) as { scanUrl: string };
          expect((await adapter.pollLogin(start.state)).scanState).toBe('waiting');
          await confirmOnPhone(scanUrl, '契约测试');
          await until(
            () => adapter.pollLogin(start.state),
            (s) => s.scanState === 'confirmed',
          );
          return adapter.completeLogin(start.state);
        },
        notesTitled: (title) => site.notes().filter((n) => n.title === title).length,
        noteImages: (title) => site.notes().find((n) => n.title === title)?.imageSha256 ?? null,
        rejectNext: () => site.failNext('reject'),
        expire(session) {
          site.expireSessions();
          return session;
        },
        close: () => app.close(),
      };
    },
  },
  ...(['2026', '2025'] as const).map((generation): { name: string; start(): Promise<Harness> } => ({
    name: `xiaohongshu (${generation} page set)`,
    async start() {
      const standin = await startXhsCreatorStandin({ generation });
      const adapter = new XiaohongshuAdapter(pool, { creatorUrl: standin.url, edithUrl: standin.url, typingDelayMs: 0 });
      return {
        adapter,
        async login() {
          const start = await adapter.startLogin('contract', {});
          expect(start.qrImage).toMatch(/^data:image\/png;base64,/);
          await standin.scanLatest(false);
          await until(
            () => adapter.pollLogin(start.state),
            (s) => s.scanState === 'scanned',
          );
          await standin.scanLatest(true, '小红薯契约');
          await until(
            () => adapter.pollLogin(start.state),
            (s) => s.scanState === 'confirmed',
          );
          return adapter.completeLogin(start.state);
        },
        notesTitled: (title) => standin.notes.filter((n) => n.title === title).length,
        noteImages: (title) => standin.notes.find((n) => n.title === title)?.imageSha256 ?? null,
        rejectNext: () => standin.failNext('rejected'),
        expire(session) {
          standin.expireSessions();
          return session;
        },
        close: () => standin.close(),
      };
    },
  })),
  {
    name: 'wechat_mp (API stand-in)',
    async start() {
      const creds = { appId: 'wx1234567890abcdef', appSecret: 'standin-secret-0123456789abcdef' };
      const standin = await startWechatPublishStandin(creds);
      const adapter = new WechatMpPublisher({ apiBase: standin.url, pollIntervalMs: 50 });
      return {
        adapter,
        async login() {
          await expect(adapter.startLogin('x', { appId: creds.appId, appSecret: 'wrong' })).rejects.toBeInstanceOf(SessionExpiredError);
          const start = await adapter.startLogin('contract', creds);
          expect(start.qrImage).toBeNull();
          expect((await adapter.pollLogin()).scanState).toBe('confirmed');
          return adapter.completeLogin(start.state);
        },
        notesTitled: (title) => standin.published.filter((p) => p.title === title).length,
        // Image notes are 贴图 (newspic): the stand-in keeps the hashes of their images in order.
        noteImages: (title) => {
          const p = standin.published.find((x) => x.title === title);
          return p ? (p.articleType === 'newspic' ? p.imageSha256 : p.content) : null;
        },
        rejectNext: () => standin.failNext('/cgi-bin/draft/add', 45003, 'title size out of limit'),
        expire: () => JSON.stringify({ ...creds, appSecret: 'reset-by-owner' }),
        close: () => standin.close(),
      };
    },
  },
];

beforeAll(() => {
  pool = new BrowserPool({ executablePath: '/usr/bin/chromium', maxConcurrent: 2, idleMs: 60_000, screenshotDir: mkdtempSync(path.join(tmpdir(), 'contract-shots-')), log });
});
afterAll(async () => {
  await pool?.close();
});

describe.each(cases)('platform adapter contract: $name', ({ start }) => {
  let h: Harness;
  let session: SessionBlob;
  let profile: AccountProfile;
  const title = `契约测试笔记${Math.floor(Math.random() * 1000)}`;
  let published: { noteId: string | null; url: string | null };
  let before: Date;

  beforeAll(async () => {
    h = await start();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('logs in and captures a session with the account profile', async () => {
    ({ session, profile } = await h.login());
    expect(profile.platformUserId).toBeTruthy();
    expect(profile.accountName).toBeTruthy();
    expect(JSON.parse(session)).toBeTruthy();
    const checked = await h.adapter.checkSession('acct-1', session);
    expect(checked.platformUserId).toBe(profile.platformUserId);
  });

  it('declares limits the shared code can check', () => {
    const l = h.adapter.limits;
    expect(l.titleMax).toBeGreaterThan(0);
    expect(l.imagesMax).toBeGreaterThanOrEqual(l.imagesMin);
    expect(textLength(title)).toBeLessThanOrEqual(l.titleMax);
  });

  it('publishes a note once, writing the idempotency marker just before the final submit', async () => {
    let marks = 0;
    before = new Date();
    const result = await h.adapter.publish(
      'acct-1',
      session,
      { title, body: '<p>第一段</p><p>第二段 hello</p>', images: [PNG_DATA_URL, PNG_DATA_URL], topics: ['旅行'] },
      {
        beforeSubmit: async () => {
          marks += 1;
          expect(h.notesTitled(title)).toBe(0);
        },
      },
    );
    expect(marks).toBe(1);
    expect(['published', 'reviewing']).toContain(result.status);
    expect(result.url).toMatch(/^https?:\/\//);
    expect(h.notesTitled(title)).toBe(1);
    published = result;
  });

  it('finds the published note in the platform list (what a retry checks) and reports its status', async () => {
    const found = await h.adapter.findPublished('acct-1', session, { title, body: '', images: [], topics: [] }, before);
    expect(found?.url).toBe(published.url);
    const missing = await h.adapter.findPublished('acct-1', session, { title: '从未发布过的标题', body: '', images: [], topics: [] }, before);
    expect(missing).toBeNull();
    const status = await h.adapter.publishStatus('acct-1', session, found!.noteId!);
    expect(status.status).toBe('published');
  });

  it('reads stats and unread counts in Xiaohongshu shape', async () => {
    const stats = await h.adapter.stats('acct-1', session);
    expect(stats.noteCount).toBeGreaterThanOrEqual(1);
    // A login that cannot read the inbox says so (typed), instead of answering zeros.
    if (h.adapter.inboxUnavailable) {
      await expect(h.adapter.unreadCounts('acct-1', session)).rejects.toBeInstanceOf(UnavailableError);
      await expect(h.adapter.comments('acct-1', session)).rejects.toBeInstanceOf(UnavailableError);
      return;
    }
    const unread = await h.adapter.unreadCounts('acct-1', session);
    expect(Object.keys(unread).sort()).toEqual(['connections', 'likes', 'mentions', 'unread_count']);
    expect(Array.isArray(await h.adapter.comments('acct-1', session))).toBe(true);
  });

  it('publishes an image note (图文): every card arrives, in order, and the platform shows it', async () => {
    // Three distinct 1080x1440 cards from the card renderer, as a graphic note sends them.
    const renderer = createCardRenderer();
    const cards = await Promise.all(['cover', 'list', 'steps'].map((templateId, i) => renderer.render({ templateId, title: `第${i + 1}张`, text: '一\n二\n三' })));
    const noteTitle = `图文契约${Math.floor(Math.random() * 1000)}`;
    const result = await h.adapter.publish(
      'acct-1',
      session,
      {
        kind: 'image',
        title: noteTitle,
        body: '三张卡片的图文笔记',
        images: cards.map((c) => `data:image/png;base64,${c.toString('base64')}`),
        topics: ['旅行'],
      },
      { beforeSubmit: async () => undefined },
    );
    expect(['published', 'reviewing']).toContain(result.status);
    const shown = h.noteImages(noteTitle);
    if (h.adapter.imageNotes === 'native') expect(shown).toEqual(cards.map((c) => createHash('sha256').update(c).digest('hex')));
    // Inline: an article carrying every card, the cover too.
    else expect(String(shown).match(/<img /g)).toHaveLength(cards.length);
  });

  it('types a refusal as ContentRejectedError (not retried) and posts nothing', async () => {
    h.rejectNext();
    const t2 = '会被拒绝的笔记';
    await expect(
      h.adapter.publish('acct-1', session, { title: t2, body: '正文', images: [PNG_DATA_URL], topics: [] }, { beforeSubmit: async () => undefined }),
    ).rejects.toBeInstanceOf(ContentRejectedError);
    expect(h.notesTitled(t2)).toBe(0);
  });

  it('types a session the platform dropped as SessionExpiredError', async () => {
    const dead = h.expire(session);
    await expect(h.adapter.checkSession('acct-1', dead)).rejects.toBeInstanceOf(SessionExpiredError);
  });
});
