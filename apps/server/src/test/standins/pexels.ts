import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/**
 * Local stand-in for the Pexels API v1 as the vendor answers it: the key in `Authorization` (401 without it),
 * `GET /v1/search?query=&page=&per_page=` -> `{page, per_page, total_results, photos:[...]}`, `GET /v1/photos/:id` ->
 * one photo, 404 for an unknown id. Photos are real PNGs (drawn with sharp) served from `/images/<id>.png`, as the
 * vendor's CDN serves them.
 */
export interface PexelsStandin {
  baseURL: string;
  apiKey: string;
  /** The search queries received, in order. */
  queries: string[];
  /** Photo ids whose `src` points somewhere else (an inner address the safe client must refuse, bytes that are not a picture). */
  srcOverride: Map<string, string>;
  /** Bytes served as a photo's picture instead of the drawn one. */
  imageOverride: Map<string, Buffer>;
  close(): Promise<void>;
}

const PHOTOS = ['咖啡', '露营', '城市', '海边', '书桌', '植物'].flatMap((word, w) =>
  Array.from({ length: 4 }, (_, i) => ({ id: String(1000 + w * 10 + i), word, width: i % 2 ? 1600 : 1200, height: i % 2 ? 1200 : 1600 })),
);

async function drawn(id: string, width: number, height: number): Promise<Buffer> {
  const hue = (Number(id) * 37) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="hsl(${hue},60%,55%)"/><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="hsl(${(hue + 180) % 360},60%,45%)"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function startPexelsStandin(opts: { apiKey?: string } = {}): Promise<PexelsStandin> {
  const apiKey = opts.apiKey ?? `pexels-${randomUUID().slice(0, 12)}`;
  const state = { queries: [] as string[], srcOverride: new Map<string, string>(), imageOverride: new Map<string, Buffer>() };
  const cache = new Map<string, Buffer>();
  let origin = '';
  const photoJson = (p: (typeof PHOTOS)[number]) => {
    const src = state.srcOverride.get(p.id) ?? `${origin}/images/${p.id}.png`;
    return {
      id: Number(p.id),
      width: p.width,
      height: p.height,
      url: `${origin}/photo/${p.word}-${p.id}/`,
      photographer: `摄影师${p.id}`,
      photographer_url: `${origin}/@p${p.id}`,
      avg_color: '#888888',
      src: { original: src, large2x: src, large: src, medium: `${origin}/images/${p.id}.png?w=350`, small: `${origin}/images/${p.id}.png?w=130`, tiny: src },
      liked: false,
      alt: `${p.word}的照片`,
    };
  };
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      const send = (status: number, body: unknown, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(Buffer.isBuffer(body) ? body : JSON.stringify(body));
      };
      const image = /^\/images\/(\d+)\.png$/.exec(url.pathname);
      if (req.method === 'GET' && image) {
        const p = PHOTOS.find((x) => x.id === image[1]);
        if (!p) return send(404, { error: 'Not Found' });
        const override = state.imageOverride.get(p.id);
        if (override) return send(200, override, 'image/png');
        const bytes = cache.get(p.id) ?? (await drawn(p.id, p.width, p.height));
        cache.set(p.id, bytes);
        return send(200, bytes, 'image/png');
      }
      if (req.headers.authorization !== apiKey) return send(401, { error: 'Unauthorized' });
      if (req.method === 'GET' && url.pathname === '/v1/search') {
        const query = url.searchParams.get('query') ?? '';
        state.queries.push(query);
        const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
        const perPage = Math.min(80, Math.max(1, Number(url.searchParams.get('per_page') ?? 15)));
        const hits = PHOTOS.filter((p) => query.includes(p.word) || p.word.includes(query));
        return send(200, { page, per_page: perPage, total_results: hits.length, photos: hits.slice((page - 1) * perPage, page * perPage).map(photoJson) });
      }
      const one = /^\/v1\/photos\/(\d+)$/.exec(url.pathname);
      if (req.method === 'GET' && one) {
        const p = PHOTOS.find((x) => x.id === one[1]);
        return p ? send(200, photoJson(p)) : send(404, { error: 'Not Found' });
      }
      send(404, { error: 'Not Found' });
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseURL: `${origin}/v1`,
    apiKey,
    get queries() {
      return state.queries;
    },
    srcOverride: state.srcOverride,
    imageOverride: state.imageOverride,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
