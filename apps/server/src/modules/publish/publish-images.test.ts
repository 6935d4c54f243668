import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode, TOKEN_NAME, type Envelope, type PlatformAccount, type PublishArticleReply } from '@inkstone/shared';
import type { TestApp } from '../../test/app.js';
import { loginByPhone } from '../../test/auth-helpers.js';
import { describeOnDatabases } from '../../test/database.js';
import { allFinished, bindSandboxAccount, publishApi, startPublishApp, waitForPublish } from '../../test/publish-helpers.js';

// The uploaded picture (a GIF) differs from the remote one (a PNG), so digests on the sandbox site tell them apart.
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const REMOTE_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface SiteNote {
  title: string;
  images: number;
  imageSha256?: string[];
}

/** A loopback server that records every request: the inward service, or a stand-in for a public image host. */
async function server(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const hits: string[] = [];
  const s = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  return {
    hits,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

describeOnDatabases('publishing images on %s', (dbKind) => {
  let t: TestApp;
  let token: string;
  let account: PlatformAccount;
  let inward: Awaited<ReturnType<typeof server>>;
  let publicHost: Awaited<ReturnType<typeof server>>;

  const publish = (body: Record<string, unknown>) => t.call<PublishArticleReply>('POST', publishApi(t, '/publish/article'), { token, body });
  const note = async (title: string) => {
    const res = (await (await fetch(`${t.url}/sandbox-platform/api/_notes`)).json()) as { data: { notes: SiteNote[] } };
    return res.data.notes.filter((n) => n.title === title);
  };
  const uploadImage = async (): Promise<string> => {
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(GIF)], { type: 'image/gif' }), '封面.gif');
    const res = (await (await fetch(`${t.url}/api/wx/upload`, { method: 'POST', headers: { [TOKEN_NAME]: token }, body: fd })).json()) as Envelope<{ url: string }>;
    expect(res.code).toBe(0);
    return res.data.url;
  };
  const publishAndWait = async (title: string, images: string[]) => {
    const res = await publish({ accountIds: [account.id], content: { title, body: '<p>图片测试正文</p>', images, topics: [] } });
    expect(res.code, res.msg).toBe(0);
    return (await waitForPublish(t, token, res.data.publishId, allFinished)).jobs[0]!;
  };

  beforeAll(async () => {
    inward = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(REMOTE_PNG);
    });
    publicHost = await server((req, res) => {
      if (req.url === '/photo.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(REMOTE_PNG);
      }
      // Bounces the fetch to the inward service (the classic way around a check made only on the first URL).
      res.writeHead(302, { location: `${inward.url}/secret.png` });
      res.end();
    });
    // Only the stand-in for a public host is allow-listed; the inward service never is.
    t = await startPublishApp(dbKind, { SAFE_FETCH_ALLOW_HOSTS: `127.0.0.1:${publicHost.port}` });
    token = (await loginByPhone(t)).tokenValue;
    account = await bindSandboxAccount(t, token, '图片账号');
  });
  afterAll(async () => {
    await t?.close();
    await inward?.close();
    await publicHost?.close();
  });

  it('an image uploaded in the editor is read from storage and reaches the platform', async () => {
    const url = await uploadImage();
    expect(url).toMatch(/^\/uploads\/images\//);
    const job = await publishAndWait('上传图片发布', [url]);
    expect(job).toMatchObject({ status: 'succeeded', error: null });
    const [n] = await note('上传图片发布');
    expect(n).toMatchObject({ images: 1, imageSha256: [sha(GIF)] });
  });

  it('absolute links to our own uploads (the request host, PUBLIC_URL) are read from storage too, also from a draft', async () => {
    const url = await uploadImage();
    const job = await publishAndWait('绝对地址图片', [`${t.url}${url}`, `http://127.0.0.1:1${url}`]);
    expect(job.status).toBe('succeeded');
    expect((await note('绝对地址图片'))[0]).toMatchObject({ images: 2, imageSha256: [sha(GIF), sha(GIF)] });

    const saved = await t.call<{ id: number }>('POST', '/writing/draft/save', { token, body: { title: '草稿里的上传图', html: `<p>正文</p><p><img src="${url}"></p>` } });
    expect(saved.code).toBe(0);
    const res = await publish({ accountIds: [account.id], draftId: saved.data.id });
    expect(res.code, res.msg).toBe(0);
    expect((await waitForPublish(t, token, res.data.publishId, allFinished)).jobs[0]!.status).toBe('succeeded');
    expect((await note('草稿里的上传图'))[0]).toMatchObject({ images: 1, imageSha256: [sha(GIF)] });
  });

  it('a stored image that is gone fails the job with a clear message instead of a fetch', async () => {
    const job = await publishAndWait('图片已删除', ['/uploads/images/00000000-0000-0000-0000-000000000000.png']);
    expect(job.status).toBe('failed');
    expect(job.error).toContain('第1张图片已被删除');
  });

  it('refuses inner addresses before queueing and never connects to them', async () => {
    for (const src of [
      `${inward.url}/x.png`,
      `http://localhost:${inward.port}/x.png`,
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${inward.port}/x.png`,
      'file:///etc/passwd',
    ]) {
      const res = await publish({ accountIds: [account.id], content: { title: '内网图片', body: '<p>正文</p>', images: [src], topics: [] } });
      expect(res.code, src).toBe(ErrorCode.VALIDATION);
      expect(res.msg).toMatch(/^images：第1张图片地址(指向内网地址|只支持 http 或 https)，已拒绝$/);
    }
    // The same through a draft's <img src>.
    const saved = await t.call<{ id: number }>('POST', '/writing/draft/save', { token, body: { title: '草稿内网图', html: `<p>x</p><img src="${inward.url}/y.png">` } });
    const res = await publish({ accountIds: [account.id], draftId: saved.data.id });
    expect(res.code).toBe(ErrorCode.VALIDATION);
    expect(res.msg).toContain('地址指向内网地址，已拒绝');
    expect(inward.hits).toHaveLength(0);
    expect(await note('内网图片')).toHaveLength(0);
  });

  it('a public image is fetched; a public host that redirects inward is refused at the redirect', async () => {
    const ok = await publishAndWait('远程图片', [`${publicHost.url}/photo.png`]);
    expect(ok.status).toBe('succeeded');
    expect((await note('远程图片'))[0]).toMatchObject({ images: 1, imageSha256: [sha(REMOTE_PNG)] });

    const bounced = await publishAndWait('重定向内网', [`${publicHost.url}/bounce.png`]);
    expect(bounced.status).toBe('failed');
    // Refused content is not retried.
    expect(bounced.attempts).toBe(1);
    expect(bounced.error).toContain('第1张图片地址指向内网地址，已拒绝');
    expect(inward.hits).toHaveLength(0);
    expect(await note('重定向内网')).toHaveLength(0);
  });
});
