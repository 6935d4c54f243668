import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { standinVector, startEmbeddingsStandin, type EmbeddingsStandin } from '../../test/standins/embeddings.js';
import { createEmbeddingsProvider } from './index.js';
import { NoEmbeddings } from './none.js';
import { OpenAiCompatibleEmbeddings } from './openai-compatible.js';
import { EmbeddingsError } from './types.js';

let standin: EmbeddingsStandin;
beforeAll(async () => {
  standin = await startEmbeddingsStandin();
});
afterAll(async () => {
  await standin?.close();
});

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0) / (Math.hypot(...a) * Math.hypot(...b));
const vendor = (o: { apiKey?: string; dimensions?: number } = {}) =>
  new OpenAiCompatibleEmbeddings({ baseURL: standin.baseURL, apiKey: o.apiKey ?? standin.apiKey, model: 'text-embedding-v3', dimensions: o.dimensions, maxRetries: 0 });

describe('embeddings contract: openai-compatible against the stand-in', () => {
  it('embeds a batch in input order, one vector of the asked size each, as float', async () => {
    const e = vendor({ dimensions: 64 });
    expect(e).toMatchObject({ enabled: true, modelId: 'text-embedding-v3@64' });
    const texts = ['动力电池回收成为新的产业机会', '手冲咖啡的水温', '老旧小区改造'];
    const vs = await e.embed(texts);
    expect(vs).toHaveLength(3);
    for (const [i, v] of vs.entries()) {
      expect(v).toHaveLength(64);
      expect(v).toEqual(standinVector(texts[i]!, 64).map((x) => expect.closeTo(x, 6)));
    }
    expect(standin.received.at(-1)).toEqual({ model: 'text-embedding-v3', input: texts, dimensions: 64, encoding_format: 'float' });
    expect(await e.embed([])).toEqual([]);
  });

  it('the model id is the bare model when no size is asked for', () => {
    expect(vendor().modelId).toBe('text-embedding-v3');
  });

  it('a wrong key and vendor errors become EmbeddingsError with the status', async () => {
    await expect(vendor({ apiKey: 'sk-wrong' }).embed(['你好'])).rejects.toMatchObject({ name: 'EmbeddingsError', status: 401 });
    standin.failNext(429);
    await expect(vendor().embed(['你好'])).rejects.toMatchObject({ status: 429 });
    const down = new OpenAiCompatibleEmbeddings({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm', maxRetries: 0, timeoutMs: 2000 });
    await expect(down.embed(['你好'])).rejects.toBeInstanceOf(EmbeddingsError);
  });
});

describe('the stand-in itself', () => {
  it('speaks the wire shape, checks the Bearer key and answers base64 like the vendor', async () => {
    const res = await fetch(`${standin.baseURL}/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${standin.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', input: '电动车', dimensions: 8 }),
    });
    const body = (await res.json()) as {
      object: string;
      data: Array<{ object: string; index: number; embedding: number[] }>;
      model: string;
      usage: { prompt_tokens: number; total_tokens: number };
    };
    expect(body).toMatchObject({ object: 'list', model: 'm', data: [{ object: 'embedding', index: 0 }], usage: { prompt_tokens: 3, total_tokens: 3 } });
    expect(body.data[0]!.embedding).toHaveLength(8);
    const anon = await fetch(`${standin.baseURL}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', input: 'x' }),
    });
    expect(anon.status).toBe(401);
    expect(((await anon.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    // The SDK's own default (base64) decodes to the same vector.
    const sdk = new OpenAI({ baseURL: standin.baseURL, apiKey: standin.apiKey });
    const b64 = await sdk.embeddings.create({ model: 'm', input: ['动力电池'], dimensions: 16 });
    expect(b64.data[0]!.embedding).toEqual(standinVector('动力电池', 16).map((x) => expect.closeTo(x, 6)));
  });

  it('texts sharing concepts but no words are closer than unrelated ones', () => {
    const q = standinVector('电动车锂电池再利用', 256);
    const right = standinVector('新能源汽车快速发展，动力电池回收成为新的产业机会。', 256);
    const other = standinVector('手冲咖啡的水温建议在九十度左右。', 256);
    expect(cosine(q, right)).toBeGreaterThan(0.4);
    expect(cosine(q, right)).toBeGreaterThan(cosine(q, other) + 0.3);
  });
});

describe('none (the embedded default)', () => {
  it('is off, has no model, and refuses to embed saying vector search is off', async () => {
    const none = new NoEmbeddings();
    expect(none).toMatchObject({ enabled: false, modelId: null });
    await expect(none.embed()).rejects.toThrow(/vector search is off/);
  });

  it('config picks none when no base URL is set, the vendor otherwise, and refuses a base URL without key or model', () => {
    expect(createEmbeddingsProvider(loadConfig({})).name).toBe('none');
    const e = createEmbeddingsProvider(loadConfig({ EMBEDDINGS_BASE_URL: standin.baseURL, EMBEDDINGS_API_KEY: 'k', EMBEDDINGS_MODEL: 'bge-m3', EMBEDDINGS_DIMENSIONS: '512' }));
    expect(e).toMatchObject({ name: 'openai-compatible', modelId: 'bge-m3@512' });
    expect(() => loadConfig({ EMBEDDINGS_BASE_URL: standin.baseURL })).toThrow(/EMBEDDINGS_API_KEY, EMBEDDINGS_MODEL: required/);
    expect(() => loadConfig({ EMBEDDINGS_DIMENSIONS: 'abc' })).toThrow(/EMBEDDINGS_DIMENSIONS/);
  });
});
