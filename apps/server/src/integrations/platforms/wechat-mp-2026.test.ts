import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginConnectReply, NoticePage, PlatformAccount } from '@inkstone/shared';
import { platformAccounts } from '../../db/schema/index.js';
import { decryptSecret } from '../../security/encryption.js';
import type { TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { allFinished, publishApi, startPublishApp, waitForPublish } from '../../test/publish-helpers.js';
import { startWechatPublishStandin, type WechatPublishStandin } from '../../test/standins/wechat-mp-publish.js';
import { ContentRejectedError, type SessionBlob } from './types.js';
import { ApiUnauthorizedError, WechatMpPublisher } from './wechat-mp.js';

/**
 * WeChat Official Account publishing as WeChat answers in 2026: personal-subject and unverified accounts get 48001 on
 * freepublish/* and user/get (since July 2025), uploadimg takes only jpg/png under 1 MB, and image notes are 贴图
 * (draft article_type newspic). Everything runs over HTTP against the api.weixin.qq.com stand-in.
 */
const verified = { appId: 'wxverified00000001', appSecret: 'standin-secret-verified-000000001' };
const unverified = { appId: 'wxpersonal0000001', appSecret: 'standin-secret-personal-000000001' };
const lapsing = { appId: 'wxlapsing00000001', appSecret: 'standin-secret-lapsing-0000000001' };
const MiB = 1024 * 1024;

const dataUrl = (mime: string, buf: Buffer) => `data:${mime};base64,${buf.toString('base64')}`;
const sha = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');
/** Random noise does not compress: an ~840x840 RGB PNG of it is over 2 MB. */
const noisePng = () =>
  sharp(randomBytes(840 * 840 * 3), { raw: { width: 840, height: 840, channels: 3 } })
    .png()
    .toBuffer();
/** A half-transparent WebP (what uploadimg refuses, and add_material too). */
const webp = (r: number) =>
  sharp({ create: { width: 320, height: 240, channels: 4, background: { r, g: 120, b: 200, alpha: 0.5 } } })
    .webp()
    .toBuffer();
const png = (r: number) =>
  sharp({ create: { width: 300, height: 400, channels: 3, background: { r, g: 30, b: 60 } } })
    .png()
    .toBuffer();

describe('wechat_mp in 2026 (API stand-in)', () => {
  let standin: WechatPublishStandin;
  let adapter: WechatMpPublisher;
  const bind = async (creds: { appId: string; appSecret: string }) => {
    const start = await adapter.startLogin('owner', creds);
    expect((await adapter.pollLogin()).scanState).toBe('confirmed');
    return adapter.completeLogin(start.state);
  };
  const freepublishCallsSince = (from: number, appId: string) => standin.calls.slice(from).filter((c) => c.appId === appId && c.path.startsWith('/cgi-bin/freepublish/'));
  /** What a caller with the account's own token gets from the stand-in (checks the stand-in itself, not the adapter). */
  const rawUpload = async (creds: { appId: string; appSecret: string }, path: string, file: Buffer, name: string) => {
    const t = (await (
      await fetch(`${standin.url}/cgi-bin/stable_token`, { method: 'POST', body: JSON.stringify({ grant_type: 'client_credential', appid: creds.appId, secret: creds.appSecret }) })
    ).json()) as { access_token: string };
    const form = new FormData();
    form.append('media', new Blob([new Uint8Array(file)]), name);
    return (await (await fetch(`${standin.url}${path}${path.includes('?') ? '&' : '?'}access_token=${t.access_token}`, { method: 'POST', body: form })).json()) as Record<
      string,
      unknown
    >;
  };

  beforeAll(async () => {
    standin = await startWechatPublishStandin({
      ...verified,
      followers: 321,
      accounts: [
        { ...unverified, verified: false },
        { ...lapsing, followers: 55 },
      ],
    });
    adapter = new WechatMpPublisher({ apiBase: standin.url, pollIntervalMs: 20 });
  });
  afterAll(() => standin?.close());

  it('the stand-in refuses what WeChat refuses: freepublish and user/get for an unverified account, webp and >= 1 MB on uploadimg', async () => {
    const big = await noisePng();
    expect(big.length).toBeGreaterThan(2 * 1000 * 1000);
    expect(await rawUpload(unverified, '/cgi-bin/media/uploadimg', await webp(10), 'a.webp')).toEqual({ errcode: 40005, errmsg: 'invalid file type' });
    expect(await rawUpload(unverified, '/cgi-bin/media/uploadimg', big, 'big.png')).toEqual({ errcode: 40009, errmsg: 'invalid image size' });
    // A webp named .png is still a webp: the type is told by its bytes.
    expect(await rawUpload(unverified, '/cgi-bin/material/add_material?type=image', await webp(10), 'a.png')).toEqual({ errcode: 40005, errmsg: 'invalid file type' });
    expect(await rawUpload(unverified, '/cgi-bin/material/add_material?type=image', big, 'big.png')).toMatchObject({ media_id: expect.any(String) });
    expect(await rawUpload(unverified, '/cgi-bin/media/uploadimg', await png(1), 'ok.png')).toMatchObject({ url: expect.stringMatching(/^http/) });
    const from = standin.calls.length;
    await expect(adapter.stats('1', JSON.stringify({ ...unverified, canPublish: true }))).resolves.toBeDefined();
    expect(
      standin.calls
        .slice(from)
        .filter((c) => c.errcode === 48001)
        .map((c) => c.path),
    ).toEqual(['/cgi-bin/user/get', '/cgi-bin/freepublish/batchget']);
  });

  describe('an unverified (personal) account', () => {
    let session: SessionBlob;

    it('binds: 48001 on freepublish/batchget makes it draft-only, 48001 on user/get leaves the follower count unknown', async () => {
      const { session: s, profile } = await bind(unverified);
      session = s;
      expect(profile).toMatchObject({ platformUserId: unverified.appId, accountName: `公众号 ${unverified.appId}`, noteCount: 0 });
      expect(profile.followerCount).toBeUndefined();
      expect(JSON.parse(session)).toEqual({ ...unverified, canPublish: false });
      await expect(adapter.checkSession('1', session)).resolves.toMatchObject({ platformUserId: unverified.appId });
      // A blob bound before this was known has no canPublish: checking it finds out instead of failing.
      await expect(adapter.checkSession('1', JSON.stringify(unverified))).resolves.toMatchObject({ platformUserId: unverified.appId, noteCount: 0 });
      expect(await adapter.stats('1', session)).toEqual({ followerCount: 0, noteCount: 0 });
    });

    it('an article becomes a saved draft (status draft), its webp and 2 MB PNG re-encoded to what uploadimg and add_material take', async () => {
      const cover = await webp(200);
      const inlineWebp = await webp(40);
      const big = await noisePng();
      const imagesBefore = standin.images.length;
      const from = standin.calls.length;
      let marks = 0;
      const result = await adapter.publish(
        '1',
        session,
        {
          title: '个人号的文章',
          body: '<p>第一段</p><p>第二段</p>',
          images: [dataUrl('image/webp', cover), dataUrl('image/webp', inlineWebp), dataUrl('image/png', big)],
          topics: ['读书'],
        },
        {
          beforeSubmit: async () => {
            marks += 1;
            // Draft-only: the draft is the final step, so the idempotency marker is written before it exists.
            expect(standin.drafts.filter((d) => d.title === '个人号的文章')).toHaveLength(0);
          },
        },
      );
      expect(marks).toBe(1);
      const draft = standin.drafts.find((d) => d.title === '个人号的文章')!;
      expect(result).toEqual({ status: 'draft', url: null, noteId: draft.mediaId });
      expect(freepublishCallsSince(from, unverified.appId)).toEqual([]);

      const sent = standin.images.slice(imagesBefore);
      const material = sent.filter((i) => i.endpoint === 'add_material');
      const inline = sent.filter((i) => i.endpoint === 'uploadimg');
      expect(material).toHaveLength(1);
      expect(material[0]).toMatchObject({ format: 'jpg', mediaId: draft.thumbMediaId });
      expect(inline).toHaveLength(2);
      for (const img of inline) {
        expect(img.format).toBe('jpg');
        expect(img.bytes).toBeLessThan(MiB);
      }
      // Transparent webp flattened on white, not black: a half-transparent pixel over white is light.
      const { data } = await sharp(inline[0]!.data).raw().toBuffer({ resolveWithObject: true });
      expect(data[0]! + data[1]! + data[2]!).toBeGreaterThan(3 * 120);
      // The article shows both, in order.
      expect(draft.articleType).toBe('news');
      expect(draft.content.indexOf(inline[0]!.url)).toBeGreaterThan(-1);
      expect(draft.content.indexOf(inline[1]!.url)).toBeGreaterThan(draft.content.indexOf(inline[0]!.url));
      expect(standin.published.filter((p) => p.title === '个人号的文章')).toHaveLength(0);
    });

    it('status, retry lookup and stats answer from the draft box without calling freepublish', async () => {
      const draft = standin.drafts.find((d) => d.title === '个人号的文章')!;
      const from = standin.calls.length;
      expect(await adapter.publishStatus('1', session, draft.mediaId)).toEqual({ status: 'draft', url: null, noteId: draft.mediaId });
      const since = new Date(Date.now() - 60_000);
      expect(await adapter.findPublished('1', session, { title: '个人号的文章', body: '', images: [], topics: [] }, since)).toEqual({
        status: 'draft',
        url: null,
        noteId: draft.mediaId,
      });
      expect(await adapter.findPublished('1', session, { title: '没有这篇', body: '', images: [], topics: [] }, since)).toBeNull();
      expect(await adapter.stats('1', session)).toEqual({ followerCount: 0, noteCount: standin.drafts.filter((d) => d.appId === unverified.appId).length });
      expect(freepublishCallsSince(from, unverified.appId)).toEqual([]);
      // Published (or deleted) by hand at mp.weixin.qq.com: the draft left the box, and the answer says so in Chinese.
      standin.drafts = standin.drafts.filter((d) => d !== draft);
      await expect(adapter.publishStatus('1', session, draft.mediaId)).rejects.toThrow('草稿已不在公众号草稿箱');
    });

    it('says 48001 plainly where it still surfaces (datacube, a freepublish lookup)', async () => {
      standin.failNext('/datacube/getusersummary', 48001, 'api unauthorized');
      const err = await adapter.metrics('1', session, { from: '2026-01-02', to: '2026-01-03' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ContentRejectedError);
      expect((err as Error).message).toBe('公众号未开放数据统计接口权限（48001：个人主体或未认证账号）');
      const lookup = await adapter.publishStatus('1', session, 'publish:2247483999').catch((e: unknown) => e);
      expect(lookup).toBeInstanceOf(ApiUnauthorizedError);
      expect((lookup as Error).message).toBe('公众号未开放发布接口权限（48001：个人主体或未认证账号）');
    });
  });

  describe('a verified account', () => {
    let session: SessionBlob;

    it('binds as able to publish and still publishes through freepublish', async () => {
      const bound = await bind(verified);
      session = bound.session;
      expect(bound.profile).toMatchObject({ followerCount: 321 });
      expect(JSON.parse(session)).toEqual({ ...verified, canPublish: true });
      const result = await adapter.publish(
        '2',
        session,
        { title: '认证号的文章', body: '<p>正文</p>', images: [dataUrl('image/png', await png(2)), dataUrl('image/webp', await webp(90))], topics: [] },
        { beforeSubmit: async () => undefined },
      );
      expect(result.status).toBe('published');
      expect(result.url).toMatch(/^https:\/\/mp\.weixin\.qq\.com\/s\//);
      // Already known to publish: nothing to write back.
      expect(result.session).toBeUndefined();
      expect(standin.published.filter((p) => p.appId === verified.appId && p.title === '认证号的文章')).toHaveLength(1);
    });

    it('a blob from before (no canPublish) learns the account can publish from its first publish', async () => {
      const result = await adapter.publish(
        '2',
        JSON.stringify(verified),
        { title: '旧绑定的文章', body: '正文', images: [dataUrl('image/png', await png(3))], topics: [] },
        { beforeSubmit: async () => undefined },
      );
      expect(result.status).toBe('published');
      expect(JSON.parse(result.session!)).toEqual({ ...verified, canPublish: true });
    });

    it('a graphic note goes out as 贴图 (newspic): every image a permanent material, in order, plain text', async () => {
      const images = await Promise.all([png(10), png(20), png(30)]);
      const result = await adapter.publish(
        '2',
        session,
        { kind: 'image', title: '三张图的贴图', body: '<p>春天<b>来了</b></p><p>去看花</p>', images: images.map((b) => dataUrl('image/png', b)), topics: ['旅行', '春天'] },
        { beforeSubmit: async () => undefined },
      );
      expect(result.status).toBe('published');
      const post = standin.published.find((p) => p.title === '三张图的贴图')!;
      expect(post.articleType).toBe('newspic');
      expect(post.imageSha256).toEqual(images.map(sha));
      expect(post.content).toBe('春天来了\n去看花\n\n#旅行 #春天');
      expect(adapter.imageNotes).toBe('native');
      expect(adapter.limits.imagesMax).toBe(20);
    });

    it('a webp in a graphic note arrives as a JPEG (add_material takes no webp)', async () => {
      const before = standin.images.length;
      const result = await adapter.publish(
        '2',
        session,
        { kind: 'image', title: '带webp的贴图', body: '正文', images: [dataUrl('image/webp', await webp(5)), dataUrl('image/png', await png(6))], topics: [] },
        { beforeSubmit: async () => undefined },
      );
      expect(result.status).toBe('published');
      expect(standin.images.slice(before).map((i) => [i.endpoint, i.format])).toEqual([
        ['add_material', 'jpg'],
        ['add_material', 'png'],
      ]);
    });
  });

  it('an account thought verified that gets 48001 at freepublish/submit ends as a draft and says so in its session', async () => {
    const { session } = await bind(lapsing);
    expect(JSON.parse(session)).toMatchObject({ canPublish: true });
    // 认证 lapsed after binding (it is renewed yearly).
    standin.setVerified(lapsing.appId, false);
    const result = await adapter.publish(
      '3',
      session,
      { title: '认证过期后的文章', body: '正文', images: [dataUrl('image/png', await png(7))], topics: [] },
      { beforeSubmit: async () => undefined },
    );
    const draft = standin.drafts.find((d) => d.title === '认证过期后的文章')!;
    expect(result).toMatchObject({ status: 'draft', url: null, noteId: draft.mediaId });
    expect(JSON.parse(result.session!)).toEqual({ ...lapsing, canPublish: false });
    expect(standin.calls.filter((c) => c.appId === lapsing.appId && c.path === '/cgi-bin/freepublish/submit').map((c) => c.errcode)).toEqual([48001]);
    expect(standin.published.filter((p) => p.title === '认证过期后的文章')).toHaveLength(0);
    // With the updated session the next look is at the draft box only.
    const from = standin.calls.length;
    expect((await adapter.publishStatus('3', result.session!, draft.mediaId)).status).toBe('draft');
    expect(freepublishCallsSince(from, lapsing.appId)).toEqual([]);
  });
});

describe('an unverified WeChat account through the app: bound, published as a draft, told what to do next', () => {
  const personal = { appId: 'wxapppersonal0001', appSecret: 'standin-secret-app-personal-00001' };
  const lapsed = { appId: 'wxapplapsed000001', appSecret: 'standin-secret-app-lapsed-0000001' };
  let standin: WechatPublishStandin;
  let t: TestApp;

  // Started in the hook: the app's start-up (migrations) is slow on a loaded machine.
  beforeAll(async () => {
    standin = await startWechatPublishStandin({ ...personal, verified: false, accounts: [lapsed] });
    t = await startPublishApp('pglite', { PUBLISH_PLATFORMS: 'sandbox,wechat_mp', WECHAT_API_BASE: standin.url });
  });
  afterAll(async () => {
    await t?.close();
    await standin?.close();
  });

  it('binds over HTTP, the job ends as 已保存草稿 with the notice, and a lapsed account’s session is stored as draft-only', async () => {
    const { tokenValue: token } = await loginByPhone(t);
    const bindOver = async (creds: { appId: string; appSecret: string }) => {
      const conn = await t.call<LoginConnectReply>('POST', publishApi(t, '/chrome/login/connect'), { token, body: { platform: 'wechat_mp', ...creds } });
      expect(conn.data).toMatchObject({ state: 'confirmed' });
      // As the web client does: reading the login completes it (completeLogin), then it is bound.
      expect((await t.call('GET', publishApi(t, '/chrome/login/cookie'), { token, query: { connectionId: conn.data.connectionId } })).code).toBe(0);
      const account = await t.call<PlatformAccount>('POST', '/publish/v4/account/bind', { token, body: { connectionId: conn.data.connectionId } });
      expect(account.code).toBe(0);
      return account.data;
    };
    const storedSession = async (id: number) => {
      const [row] = await t.container.db.select().from(platformAccounts).where(eq(platformAccounts.id, id));
      return JSON.parse(decryptSecret(t.container.key, row!.sessionEnc!)) as Record<string, unknown>;
    };
    const publish = async (accountId: number, title: string) => {
      const res = await t.call<{ publishId: string }>('POST', publishApi(t, '/publish/article'), {
        token,
        body: { accountIds: [accountId], content: { title, body: '<p>正文</p>', images: [dataUrl('image/png', await png(8))], topics: [] } },
      });
      expect(res.code).toBe(0);
      return (await waitForPublish(t, token, res.data.publishId, allFinished)).jobs[0]!;
    };
    const notices = async () => (await t.call<NoticePage>('GET', '/notice/v2/list', { token, query: { pageSize: 100 } })).data.records;

    const a = await bindOver(personal);
    expect(await storedSession(a.id)).toMatchObject({ canPublish: false });
    const job = await publish(a.id, '个人号经由应用');
    expect(job).toMatchObject({ status: 'succeeded', platformStatus: 'draft', url: null });
    expect(standin.drafts.map((d) => d.title)).toContain('个人号经由应用');
    const notice = (await notices()).find((n) => n.content.includes('个人号经由应用'))!;
    expect(notice.title).toBe('已保存为草稿');
    expect(notice.content).toBe(
      `「个人号经由应用」已保存为公众号草稿（微信公众号账号「${a.accountName}」）。该公众号未认证，微信不开放接口发布，请登录 mp.weixin.qq.com 在「草稿箱」中发布。`,
    );

    const b = await bindOver(lapsed);
    expect(await storedSession(b.id)).toMatchObject({ canPublish: true });
    standin.setVerified(lapsed.appId, false);
    expect(await publish(b.id, '认证过期经由应用')).toMatchObject({ status: 'succeeded', platformStatus: 'draft' });
    // The publish service stored the session the adapter handed back.
    expect(await storedSession(b.id)).toMatchObject({ appId: lapsed.appId, canPublish: false });
  });
});
