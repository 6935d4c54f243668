import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Jieba } from '@node-rs/jieba';
import { dict } from '@node-rs/jieba/dict.js';

/**
 * Local stand-in for an OpenAI-compatible embeddings endpoint (OpenAI, DashScope compatible mode, Zhipu, SiliconFlow,
 * Ollama, vLLM), speaking the wire format exactly: `POST /v1/embeddings` with `Authorization: Bearer <key>` and
 * {model, input: string | string[], encoding_format?: 'float' | 'base64', dimensions?} ->
 * {object: 'list', data: [{object: 'embedding', index, embedding}], model, usage: {prompt_tokens, total_tokens}};
 * errors as HTTP status + {error: {message, type, param, code}}.
 *
 * Its vectors are deterministic and carry a little meaning: the text is cut by jieba, each word is replaced by its
 * concept when it has one (电动车, 电动汽车, 新能源汽车 -> one concept), and the words are hashed into `dimensions`
 * signed buckets, L2-normalised. Two texts that share concepts but no words are therefore close, which is exactly
 * what full-text search cannot see.
 */

/** Words that mean the same thing here; anything else is its own concept. */
const STANDIN_CONCEPTS: Record<string, string[]> = {
  ev: ['电动车', '电动汽车', '新能源汽车', '新能源', '汽车', '电车', '新能源车'],
  battery: ['电池', '动力电池', '锂电池', '锂电', '蓄电池', '电芯'],
  recycle: ['回收', '利用', '再利用', '循环', '再生', '拆解', '梯次'],
  coffee: ['咖啡', '拿铁', '美式', '手冲', '咖啡豆'],
  renewal: ['城市更新', '旧城', '改造', '翻新', '老旧', '老房子'],
  tea: ['茶', '茶叶', '普洱', '普洱茶', '绿茶', '红茶'],
};
const CONCEPT_OF = new Map(Object.entries(STANDIN_CONCEPTS).flatMap(([c, words]) => words.map((w) => [w, `concept:${c}`] as const)));
const WORDY = /[\p{L}\p{N}]/u;
let jieba: Jieba | null = null;

/** The stand-in's vector for `text` (exported so tests can reason about distances). */
export function standinVector(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const raw of (jieba ??= Jieba.withDict(dict)).cut(text, false)) {
    const w = raw.trim().toLowerCase();
    // Single characters (的, 和, 新...) are mostly function words: they would make every text look alike.
    if (!WORDY.test(w) || [...w].length < 2) continue;
    const key = CONCEPT_OF.get(w) ?? w;
    const h = createHash('sha256').update(key).digest();
    v[h.readUInt32BE(0) % dims]! += h[4]! & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...v);
  // An empty text still gets a (fixed) unit vector, as real models do.
  return norm ? v.map((x) => x / norm) : v.map((_, i) => (i === 0 ? 1 : 0));
}

export interface EmbeddingsStandin {
  url: string;
  /** Base URL to configure (`<url>/v1`). */
  baseURL: string;
  apiKey: string;
  /** Request bodies received with a valid key, in order. */
  received: Array<{ model: string; input: string[]; dimensions?: number; encoding_format?: string }>;
  /** The next request answers this HTTP status with the OpenAI error shape. */
  failNext(status: number): void;
  /** Every request fails with this status until set to null (a vendor outage). */
  down: number | null;
  close(): Promise<void>;
}

const DEFAULT_DIMS = 256;

export async function startEmbeddingsStandin(opts: { apiKey?: string } = {}): Promise<EmbeddingsStandin> {
  const apiKey = opts.apiKey ?? 'sk-embed-standin';
  const received: EmbeddingsStandin['received'] = [];
  let failStatus: number | null = null;
  const state = { down: null as number | null };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const error = (status: number, message: string, type: string, code: string | null, param: string | null = null) => json(status, { error: { message, type, param, code } });
      const url = new URL(req.url ?? '/', 'http://standin');
      if (req.method !== 'POST' || url.pathname !== '/v1/embeddings')
        return error(404, `Unknown request URL: ${req.method} ${url.pathname}`, 'invalid_request_error', 'unknown_url');
      if (req.headers.authorization !== `Bearer ${apiKey}`) return error(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
      const fail = failStatus ?? state.down;
      failStatus = null;
      if (fail)
        return error(
          fail,
          fail === 429 ? 'Rate limit reached for requests' : 'The server had an error while processing your request.',
          fail === 429 ? 'requests' : 'server_error',
          fail === 429 ? 'rate_limit_exceeded' : null,
        );
      let body: { model?: unknown; input?: unknown; dimensions?: unknown; encoding_format?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        return error(400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null);
      }
      if (typeof body.model !== 'string' || !body.model) return error(400, 'you must provide a model parameter', 'invalid_request_error', null, 'model');
      const input = typeof body.input === 'string' ? [body.input] : body.input;
      if (!Array.isArray(input) || !input.length || input.some((s) => typeof s !== 'string' || !s))
        return error(400, "'$.input' is invalid. Please check the API reference.", 'invalid_request_error', null, 'input');
      if (input.length > 2048) return error(400, 'Too many inputs. The max number of inputs is 2048.', 'invalid_request_error', null, 'input');
      const dims = body.dimensions === undefined ? DEFAULT_DIMS : Number(body.dimensions);
      if (!Number.isInteger(dims) || dims < 1 || dims > 4096) return error(400, 'Invalid value for dimensions.', 'invalid_request_error', null, 'dimensions');
      const format = body.encoding_format ?? 'float';
      if (format !== 'float' && format !== 'base64') return error(400, "Invalid value for 'encoding_format'.", 'invalid_request_error', null, 'encoding_format');
      received.push({ model: body.model, input: input as string[], ...(body.dimensions !== undefined ? { dimensions: dims } : {}), encoding_format: format });
      const tokens = (input as string[]).reduce((n, s) => n + s.length, 0);
      return json(200, {
        object: 'list',
        data: (input as string[]).map((s, index) => {
          const v = standinVector(s, dims);
          // base64: the little-endian float32 bytes, as OpenAI sends them.
          return { object: 'embedding', index, embedding: format === 'base64' ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v };
        }),
        model: body.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    apiKey,
    received,
    failNext(status) {
      failStatus = status;
    },
    get down() {
      return state.down;
    },
    set down(v) {
      state.down = v;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
