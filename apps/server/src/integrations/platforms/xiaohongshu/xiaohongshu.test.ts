import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../../browser/pool.js';
import { until } from '../../../test/publish-helpers.js';
import { startXhsCreatorStandin, type XhsCreatorStandin, type XhsGeneration } from '../../../test/standins/xhs-creator/server.js';
import { createCardRenderer } from '../../cards/index.js';
import { StepFailedError, type SiteProfileOverride } from '../site-steps.js';
import { CaptchaError, RateLimitedError, SessionExpiredError, UnavailableError, type AccountProfile, type SessionBlob } from '../types.js';
import { XiaohongshuAdapter } from './adapter.js';

/**
 * The Xiaohongshu adapter against both local page sets: the site as it is in 2026 (TipTap body, closed-shadow
 * <xhs-publish-btn>, decoy tabs, an upload input that loses its class, signed API calls, personal_info without an id,
 * v2 posted notes with review states) and the 2025 one, so every step's fallbacks are proven on both.
 */
let pool: BrowserPool;
const log = pino({ level: 'silent' });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(() => {
  pool = new BrowserPool({ executablePath: '/usr/bin/chromium', maxConcurrent: 2, idleMs: 60_000, screenshotDir: mkdtempSync(path.join(tmpdir(), 'xhs-shots-')), log });
});
afterAll(async () => {
  await pool?.close();
});

async function login(adapter: XiaohongshuAdapter, standin: XhsCreatorStandin, owner: string, name: string) {
  const start = await adapter.startLogin(owner, {});
  expect(start.qrImage).toMatch(/^data:image\/png;base64,/);
  await standin.scanLatest(true, name);
  await until(
    () => adapter.pollLogin(start.state),
    (s) => s.scanState === 'confirmed',
  );
  return adapter.completeLogin(start.state);
}

describe.each<XhsGeneration>(['2026', '2025'])('Xiaohongshu on the %s page set', (generation) => {
  let standin: XhsCreatorStandin;
  let adapter: XiaohongshuAdapter;
  let override: SiteProfileOverride | null = null;
  let first: { session: SessionBlob; profile: AccountProfile };
  let cards: Buffer[];

  beforeAll(async () => {
    standin = await startXhsCreatorStandin({ generation });
    adapter = new XiaohongshuAdapter(pool, {
      creatorUrl: standin.url,
      edithUrl: standin.url,
      profiles: { override: () => override },
      typingDelayMs: 0,
      topicWaitMs: 2500,
    });
    const renderer = createCardRenderer();
    cards = await Promise.all(['cover', 'list', 'steps'].map((templateId, i) => renderer.render({ templateId, title: `第${i + 1}张`, text: '一\n二' })));
  });
  afterAll(async () => {
    await standin?.close();
  });

  it('binds two accounts as two, each with its own id (never "undefined")', async () => {
    first = await login(adapter, standin, 'owner-a', '小红薯甲');
    const second = await login(adapter, standin, 'owner-b', '小红薯乙');
    expect(first.profile.accountName).toBe('小红薯甲');
    expect(second.profile.accountName).toBe('小红薯乙');
    expect(first.profile.platformUserId).toMatch(/^[0-9a-f]{16,}$/);
    expect(second.profile.platformUserId).toMatch(/^[0-9a-f]{16,}$/);
    expect(first.profile.platformUserId).not.toBe(second.profile.platformUserId);
    expect((await adapter.checkSession('acct-a', first.session)).platformUserId).toBe(first.profile.platformUserId);
  });

  it('publishes a note of three images in order, skips a topic the site does not suggest and says so, declares AI content', async () => {
    const title = `三图笔记${generation}`;
    let marks = 0;
    const result = await adapter.publish(
      'acct-a',
      first.session,
      {
        kind: 'image',
        title,
        body: '<p>第一段</p><p>第二段</p>',
        images: cards.map((c) => `data:image/png;base64,${c.toString('base64')}`),
        topics: ['旅行', '冷门话题'],
        aiGenerated: true,
      },
      { beforeSubmit: async () => void (marks += 1) },
    );
    expect(marks).toBe(1);
    const note = standin.notes.find((n) => n.title === title)!;
    expect(note.imageSha256).toEqual(cards.map(sha));
    expect(note.topics).toEqual(['旅行']);
    expect(result.warnings?.join()).toContain('冷门话题');
    expect(result.noteId).toBe(note.id);
    // The 2025 form had no declaration: published, and the creator is told to declare it by hand.
    if (generation === '2026') expect(note.aiDeclared).toBe(true);
    else expect(result.warnings?.join()).toContain('AI');
    expect(standin.drafts).toHaveLength(0);
  });

  it('lists notes with China-local times and their review state (审核中 / 未通过)', async () => {
    const before = new Date(Date.now() - 60_000);
    const note = standin.notes.find((n) => n.title === `三图笔记${generation}`)!;
    const found = await adapter.findPublished('acct-a', first.session, { title: note.title, body: '', images: [], topics: [] }, before);
    expect(found?.noteId).toBe(note.id);
    if (generation === '2025') return;
    standin.setNoteStatus(note.id, 'reviewing');
    expect((await adapter.publishStatus('acct-a', first.session, note.id)).status).toBe('reviewing');
    standin.setNoteStatus(note.id, 'rejected');
    expect((await adapter.publishStatus('acct-a', first.session, note.id)).status).toBe('rejected');
  });

  it('never sends an unsigned API call', () => {
    expect(standin.unsignedCalls).toEqual([]);
  });

  it('types a rejected note, a dropped session and (2026) risk control apart', async () => {
    standin.failNext('rejected');
    await expect(
      adapter.publish(
        'acct-a',
        first.session,
        { title: '会被拒绝', body: '正文', images: [`data:image/png;base64,${cards[0]!.toString('base64')}`], topics: [] },
        { beforeSubmit: async () => undefined },
      ),
    ).rejects.toThrow(/违规/);
    if (generation === '2026') {
      standin.failNext('risk', '/api/galaxy/v2');
      await expect(adapter.checkSession('acct-a', first.session)).rejects.toBeInstanceOf(RateLimitedError);
    }
    await expect(adapter.unreadCounts()).rejects.toBeInstanceOf(UnavailableError);
  });

  it('a step whose every locator fails names the step and what it tried, with a diagnostic; the operator fix applies to the next publish', async () => {
    override = { steps: { title: ['input.never-there'] } };
    const content = { title: '换选择器', body: '正文', images: [`data:image/png;base64,${cards[1]!.toString('base64')}`], topics: [] };
    const err = await adapter.publish('acct-a', first.session, content, { beforeSubmit: async () => undefined }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepFailedError);
    expect((err as StepFailedError).message).toContain('填写标题');
    const diag = (err as StepFailedError).diagnostic!;
    expect(diag.step).toBe('title');
    expect(diag.tried).toEqual(['input.never-there']);
    expect(diag.url).toMatch(/\/publish\/publish$/);
    expect(diag.domExcerpt).toContain('<');
    expect(diag.domExcerpt).not.toMatch(/access-token|web_session|AT-/);
    expect(diag.screenshot?.length).toBeGreaterThan(100);
    expect(standin.notes.some((n) => n.title === '换选择器')).toBe(false);
    // The operator points the step at the page's title input: the next publish uses it, no restart.
    override = { steps: { title: ['input[placeholder*="标题"]'] } };
    await adapter.publish('acct-a', first.session, content, { beforeSubmit: async () => undefined });
    expect(standin.notes.filter((n) => n.title === '换选择器')).toHaveLength(1);
    override = null;
  });

  it('a dry run (the canary) fills every step and posts nothing', async () => {
    const result = await adapter.publish(
      'acct-a',
      first.session,
      { title: '巡检笔记', body: '这是一条平台巡检，不会被发布。', images: [`data:image/png;base64,${cards[2]!.toString('base64')}`], topics: ['旅行'] },
      { beforeSubmit: async () => undefined, dryRun: true },
    );
    expect(result.stoppedBeforeSubmit).toBe(true);
    expect(standin.notes.some((n) => n.title === '巡检笔记')).toBe(false);
    expect(standin.drafts).toHaveLength(0);
  });

  it('types a session the site dropped as SessionExpiredError', async () => {
    standin.expireSessions();
    await expect(adapter.checkSession('acct-a', first.session)).rejects.toBeInstanceOf(SessionExpiredError);
  });
});

describe('Xiaohongshu 2026: what peers report covering the page', () => {
  let standin: XhsCreatorStandin;
  let adapter: XiaohongshuAdapter;

  beforeAll(async () => {
    standin = await startXhsCreatorStandin({ generation: '2026' });
    adapter = new XiaohongshuAdapter(pool, { creatorUrl: standin.url, edithUrl: standin.url, typingDelayMs: 0, topicWaitMs: 2500 });
  });
  afterAll(async () => {
    await standin?.close();
  });

  it('a login page whose QR switch moved fails with the step and a diagnostic (what 平台健康 shows for bindings)', async () => {
    const moved = new XiaohongshuAdapter(pool, {
      creatorUrl: standin.url,
      edithUrl: standin.url,
      profiles: { override: () => ({ steps: { 'login.qrSwitch': ['img.switch-moved'] } }) },
    });
    const err = await moved.startLogin('owner-x', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StepFailedError);
    expect((err as StepFailedError).diagnostic).toMatchObject({ step: 'login', key: 'login.qrSwitch', tried: ['img.switch-moved'] });
    expect((err as StepFailedError).diagnostic!.url).toMatch(/\/login$/);
  });

  it('a captcha after the scan fails the login at once with the reason, instead of waiting for the QR to expire', async () => {
    standin.failNext('login-captcha');
    const start = await adapter.startLogin('owner-c', {});
    await standin.scanLatest(true, '验证用户');
    const polled = await until(
      () => adapter.pollLogin(start.state),
      (s) => s.scanState !== 'waiting' && s.scanState !== 'scanned',
    );
    expect(polled.scanState).toBe('failed');
    expect(polled.error).toContain('安全验证');
    await adapter.cancelLogin(start.state);
  });

  it('closes the 原创声明 dialog that covers the form, and sets a schedule the page shows back', async () => {
    const { session } = await login(adapter, standin, 'owner-d', '定时用户');
    standin.failNext('original-dialog');
    const at = new Date(Date.now() + 3 * 3600_000);
    const result = await adapter.publish(
      'acct-d',
      session,
      {
        title: '定时笔记',
        body: '正文',
        images: ['data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='],
        topics: [],
      },
      { beforeSubmit: async () => undefined, scheduleAt: at },
    );
    expect(result.status).toBe('scheduled');
    const note = standin.notes.find((n) => n.title === '定时笔记')!;
    expect(note.postTime).toBe(new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' '));
    expect(note.aiDeclared).toBe(false);
  });

  it('a captcha at publish is typed as CaptchaError', async () => {
    const { session } = await login(adapter, standin, 'owner-e', '风控用户');
    standin.failNext('captcha');
    await expect(
      adapter.publish(
        'acct-e',
        session,
        {
          title: '验证码',
          body: '正文',
          images: ['data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='],
          topics: [],
        },
        { beforeSubmit: async () => undefined },
      ),
    ).rejects.toBeInstanceOf(CaptchaError);
  });
});
