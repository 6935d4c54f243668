import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/**
 * Local stand-in for an OpenAI-compatible `POST /v1/images/generations`, answering as the vendors do:
 * `{created, data:[{b64_json | url, revised_prompt}]}`; errors as HTTP status + `{error:{message,type,code}}`.
 * Pictures are real PNGs (drawn with sharp) of the requested size; `url` replies are served from `/files/<id>.png`.
 */
export interface ImagesRequestBody {
  model: string;
  prompt: string;
  n?: number;
  size?: string;
  response_format?: string;
}

export type ImagesStep =
  | { kind: 'http-error'; status: number; error: { message: string; type?: string; code?: string | null } }
  /** Answer with these bytes instead of a picture (a vendor sending something that is not an image). */
  | { kind: 'bytes'; bytes: Buffer }
  /** Answer with a URL (e.g. an inner address the safe client must refuse). */
  | { kind: 'url'; url: string }
  /** Draw the picture but answer with its URL on this stand-in, whatever the request asked. */
  | { kind: 'as-url' };

export interface ImagesStandin {
  baseURL: string;
  apiKey: string;
  received: ImagesRequestBody[];
  script: ImagesStep[];
  /** Reply shape for unscripted requests when the request sends no response_format. */
  defaultFormat: 'b64_json' | 'url';
  close(): Promise<void>;
}

async function picture(size: string | undefined, seed: number): Promise<Buffer> {
  const [w, h] = (size ?? '1024x1024').split('x').map(Number) as [number, number];
  const hue = (seed * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,60%)"/><stop offset="1" stop-color="hsl(${(hue + 90) % 360},70%,40%)"/></linearGradient></defs><rect width="${w}" height="${h}" fill="url(#g)"/><circle cx="${w / 2}" cy="${h / 2}" r="${Math.min(w, h) / 4}" fill="#fff" opacity="0.6"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function startImagesStandin(opts: { apiKey?: string } = {}): Promise<ImagesStandin> {
  const apiKey = opts.apiKey ?? `sk-img-${randomUUID().slice(0, 8)}`;
  const files = new Map<string, Buffer>();
  let seq = 0;
  const state = { received: [] as ImagesRequestBody[], script: [] as ImagesStep[], defaultFormat: 'b64_json' as 'b64_json' | 'url' };
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(Buffer.isBuffer(body) ? body : JSON.stringify(body));
    };
    const file = /^\/files\/([\w-]+)\.png$/.exec(req.url ?? '');
    if (req.method === 'GET' && file) {
      const buf = files.get(file[1]!);
      return buf ? send(200, buf, 'image/png') : send(404, { error: { message: 'not found' } });
    }
    if (req.method !== 'POST' || req.url !== '/v1/images/generations') return send(404, { error: { message: 'not found', type: 'invalid_request_error' } });
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ImagesRequestBody;
        state.received.push(body);
        const step = state.script.shift();
        if (step?.kind === 'http-error') return send(step.status, { error: { type: 'invalid_request_error', code: null, ...step.error } });
        const created = Math.floor(Date.now() / 1000);
        const format = body.response_format ?? state.defaultFormat;
        if (step?.kind === 'url') return send(200, { created, data: [{ url: step.url }] });
        const bytes = step?.kind === 'bytes' ? step.bytes : await picture(body.size, ++seq);
        if (format === 'url' || step?.kind === 'as-url') {
          const id = randomUUID();
          files.set(id, bytes);
          const { port } = server.address() as AddressInfo;
          return send(200, { created, data: [{ url: `http://127.0.0.1:${port}/files/${id}.png`, revised_prompt: body.prompt }] });
        }
        return send(200, { created, data: [{ b64_json: bytes.toString('base64'), revised_prompt: body.prompt }] });
      })().catch((err: unknown) => send(500, { error: { message: String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    baseURL: `http://127.0.0.1:${port}/v1`,
    apiKey,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
