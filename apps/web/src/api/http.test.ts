import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildUrl, http } from './http';

/** The HTTP client under request(), on the wire: a real server records what arrives and answers as told. */
let server: Server;
let seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
const storage = new Map<string, string>();
beforeAll(async () => {
  vi.stubGlobal('localStorage', { getItem: (k: string) => storage.get(k) ?? null, setItem: () => {}, removeItem: () => {} });
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('latin1')));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.url!.startsWith('/api/status/')) {
        res.writeHead(Number(req.url!.split('/')[3]), { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 500, msg: '服务异常', data: null }));
      } else if (req.url!.startsWith('/api/text')) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>not json</html>');
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'content-disposition': 'attachment; filename="a.txt"' });
        res.end(JSON.stringify({ code: 0, msg: 'ok', data: { n: 1 } }));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  http.defaults.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(async () => {
  http.defaults.baseURL = '/api';
  vi.unstubAllGlobals();
  await new Promise((r) => server.close(r));
});

describe('http client', () => {
  it('builds the address as axios did: base, query with arrays as key[], nulls left out, axios encoding', () => {
    expect(buildUrl({ baseURL: '/api', url: '/writing/draft/list', params: { pageNum: 2, q: '美食 旅行', skip: null, none: undefined } })).toBe(
      '/api/writing/draft/list?pageNum=2&q=%E7%BE%8E%E9%A3%9F+%E6%97%85%E8%A1%8C',
    );
    expect(buildUrl({ baseURL: '/api', url: '/x?a=1', params: { ids: [1, 2], at: new Date('2026-01-02T03:04:05Z') } })).toBe(
      '/api/x?a=1&ids[]=1&ids[]=2&at=2026-01-02T03:04:05.000Z',
    );
    expect(buildUrl({ baseURL: '', url: '/publish-api/publish/result', params: { publishId: 'p:1,2' } })).toBe('/publish-api/publish/result?publishId=p:1,2');
    expect(buildUrl({ baseURL: '/api', url: 'https://cdn.example/x.png' })).toBe('https://cdn.example/x.png');
  });

  it('sends a JSON body with its content type, the session and device headers; no content type without a body', async () => {
    storage.set('tokenName', 'satoken');
    storage.set('tokenValue', 'tok-9');
    storage.set('duid', 'dev-1');
    seen = [];
    const res = await http.request({ method: 'POST', url: '/writing/draft/delete', data: { id: 7 } });
    expect(res.data).toEqual({ code: 0, msg: 'ok', data: { n: 1 } });
    expect(res.headers['content-disposition']).toBe('attachment; filename="a.txt"');
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/writing/draft/delete', body: '{"id":7}' });
    expect(seen[0]!.headers).toMatchObject({ 'content-type': 'application/json', satoken: 'tok-9', 'x-device-id': 'dev-1' });

    await http.request({ method: 'POST', url: '/notice/read', params: { id: '3' } });
    expect(seen[1]).toMatchObject({ method: 'POST', url: '/api/notice/read?id=3', body: '' });
    expect(seen[1]!.headers['content-type']).toBeUndefined();
    storage.clear();
  });

  it('lets the runtime set the multipart boundary of a FormData body', async () => {
    seen = [];
    const fd = new FormData();
    fd.append('file', new Blob(['hello']), 'a.txt');
    await http.request({ method: 'POST', url: '/writing/file/upload', data: fd });
    expect(seen[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0]!.body).toContain('hello');
  });

  it('reads text that is not JSON as text, and blobs and array buffers when asked', async () => {
    expect((await http.get('/text')).data).toBe('<html>not json</html>');
    const blob = (await http.get<Blob>('/file', { responseType: 'blob' })).data;
    expect(blob).toBeInstanceOf(Blob);
    expect(JSON.parse(await blob.text())).toMatchObject({ code: 0 });
    const buf = (await http.get<ArrayBuffer>('/file', { responseType: 'arraybuffer' })).data;
    expect(buf).toBeInstanceOf(ArrayBuffer);
  });

  it('rejects a non-2xx reply with the reply attached, as axios did', async () => {
    const err = (await http.get('/status/502').catch((e: unknown) => e)) as { code: string; response: { status: number; data: unknown } };
    expect(err.code).toBe('ERR_BAD_RESPONSE');
    expect(err.response.status).toBe(502);
    expect(err.response.data).toEqual({ code: 500, msg: '服务异常', data: null });
    expect(((await http.get('/status/404').catch((e: unknown) => e)) as { code: string }).code).toBe('ERR_BAD_REQUEST');
  });

  it('a refused connection is a network error', async () => {
    const err = (await http.get('http://127.0.0.1:9/nothing').catch((e: unknown) => e)) as { code: string };
    expect(err.code).toBe('ERR_NETWORK');
  });
});
