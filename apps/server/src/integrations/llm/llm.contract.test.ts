import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiStandin, vendorStreamErrors, type OpenAiStandin, type VendorErrorEvent } from '../../test/standins/openai-compatible.js';
import { OFFLINE_LABEL, OfflineWriter } from './offline.js';
import { ModelThread } from './model-thread.js';
import { OpenAiCompatibleLlm, type OpenAiCompatibleOptions } from './openai-compatible.js';
import { LlmContentFilteredError, LlmRateLimitedError, LlmUpstreamError, type LlmChunk, type LlmClient } from './types.js';

async function collect(llm: LlmClient, content: string) {
  const chunks: LlmChunk[] = [];
  for await (const c of llm.stream({
    messages: [
      { role: 'system', content: '你是写作助手' },
      { role: 'user', content },
    ],
  }))
    chunks.push(c);
  const text = chunks
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('');
  return { chunks, text };
}

let standin: OpenAiStandin;
/** Model streams read off the main event loop (LLM_THREAD): every adapter test runs on it as well as in process. */
const thread = new ModelThread();
beforeAll(async () => {
  standin = await startOpenAiStandin({ model: 'deepseek-chat' });
});
afterAll(async () => {
  await thread.close();
  await standin?.close();
});

const implementations: Array<[string, () => LlmClient]> = [
  ['offline', () => new OfflineWriter()],
  ['openai-compatible', () => new OpenAiCompatibleLlm({ id: 'm1', label: 'M1', baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'deepseek-chat', retryBaseMs: 1 })],
  [
    'openai-compatible in the model thread',
    () => thread.client({ id: 'm1', label: 'M1', baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'deepseek-chat', retryBaseMs: 1 }),
  ],
];

describe.each(implementations)('LLM contract: %s', (_name, make) => {
  it('streams text in several chunks and ends with finish', async () => {
    const { chunks, text } = await collect(make(), '写一篇关于城市骑行通勤的文章。骑行让通勤更健康，也更省钱。');
    expect(chunks.filter((c) => c.type === 'text').length).toBeGreaterThan(1);
    expect(text.length).toBeGreaterThan(10);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('declares whether it is an AI model', () => {
    expect(typeof make().isAi).toBe('boolean');
  });
});

describe('offline writer', () => {
  it('declares itself not AI (as data, not inside the text) and builds a structured draft from the user input', async () => {
    const llm = new OfflineWriter();
    expect(llm.isAi).toBe(false);
    const { text } = await collect(llm, '城市骑行通勤的好处。骑行让通勤更健康，也更省钱。很多城市正在修建自行车专用道。');
    // The text may be published as it is: the label is shown beside it by the UI, never written into it.
    expect(text).not.toContain(OFFLINE_LABEL);
    expect(text).not.toMatch(/离线写作助手|非AI/);
    expect(text.startsWith('# ')).toBe(true);
    expect(text).toContain('## 导语');
    expect(text).toContain('骑行让通勤更健康');
    expect(text).toMatch(/## 一、/);
  });
});

const inProcess = (opts: OpenAiCompatibleOptions): LlmClient => new OpenAiCompatibleLlm(opts);
const inThread = (opts: OpenAiCompatibleOptions): LlmClient => thread.client(opts);

describe.each([
  ['in process', inProcess],
  ['in the model thread', inThread],
])('openai-compatible adapter against the stand-in, %s', (_where, client) => {
  const make = (over: Partial<{ apiKey: string; maxRetries: number }> = {}) =>
    client({
      id: 'm1',
      label: 'M1',
      baseURL: standin.baseURL,
      apiKey: over.apiKey ?? standin.apiKey,
      model: 'deepseek-chat',
      retryBaseMs: 1,
      maxRetries: over.maxRetries,
    });

  it('sends the Bearer key, asks for usage and reports reasoning before content, then usage', async () => {
    standin.script.push({ kind: 'reply', reply: { reasoning: '先想一想用户要什么。', content: '这是正文内容，共有若干字。', keepAlive: true } });
    const { chunks, text } = await collect(make(), '你好');
    expect(text).toBe('这是正文内容，共有若干字。');
    const kinds = chunks.map((c) => c.type);
    expect(kinds.indexOf('reasoning')).toBeLessThan(kinds.indexOf('text'));
    const usage = chunks.find((c) => c.type === 'usage');
    expect(usage).toMatchObject({ type: 'usage', usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number) } });
    const req = standin.received.at(-1)!;
    expect(req.stream).toBe(true);
    expect(req.stream_options).toEqual({ include_usage: true });
  });

  it('function calling: sends the tools, assembles streamed tool_calls deltas into whole calls, and sends results back under their ids', async () => {
    standin.script.push({
      kind: 'reply',
      reply: {
        content: '我先查一下热点。',
        chunkChars: 3,
        toolCalls: [
          { name: 'hot_topics', arguments: { keyword: '母婴', limit: 5 }, id: 'call_a' },
          { name: 'list_accounts', arguments: {}, id: 'call_b' },
        ],
      },
    });
    const tools = [
      { name: 'hot_topics', description: '热点', parameters: { type: 'object', properties: { keyword: { type: 'string' } } } },
      { name: 'list_accounts', description: '账号', parameters: { type: 'object', properties: {} } },
    ];
    const chunks: LlmChunk[] = [];
    for await (const c of make().stream({ messages: [{ role: 'user', content: '帮我写母婴文章' }], tools })) chunks.push(c);
    const calls = chunks.filter((c) => c.type === 'tool_call').map((c) => (c as { call: unknown }).call);
    expect(calls).toEqual([
      { id: 'call_a', name: 'hot_topics', arguments: JSON.stringify({ keyword: '母婴', limit: 5 }) },
      { id: 'call_b', name: 'list_accounts', arguments: '{}' },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
    expect(standin.received.at(-1)!.tools!.map((t) => t.function.name)).toEqual(['hot_topics', 'list_accounts']);

    standin.script.push({ kind: 'reply', reply: { content: '热点找到了。' } });
    const { text } = await (async () => {
      let t = '';
      for await (const c of make().stream({
        messages: [
          { role: 'user', content: '帮我写母婴文章' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'call_a', name: 'hot_topics', arguments: '{}' }] },
          { role: 'tool', toolCallId: 'call_a', content: '{"items":[]}' },
        ],
        tools,
      }))
        if (c.type === 'text') t += c.text;
      return { text: t };
    })();
    expect(text).toBe('热点找到了。');
    const sent = standin.received.at(-1)!.messages;
    expect(sent[1]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'hot_topics', arguments: '{}' } }] });
    expect(sent[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_a', content: '{"items":[]}' });
  });

  it('a wrong key is an upstream error, not retried', async () => {
    const before = standin.received.length;
    await expect(collect(make({ apiKey: 'sk-wrong' }), '你好')).rejects.toBeInstanceOf(LlmUpstreamError);
    expect(standin.received.length).toBe(before);
  });

  it('retries 429 and 503 with backoff, then succeeds', async () => {
    const before = standin.received.length;
    standin.script.push(
      { kind: 'http-error', status: 429, error: { message: 'Rate limit reached', type: 'rate_limit_error', code: 'rate_limit_exceeded' } },
      { kind: 'http-error', status: 503, error: { message: 'Server overloaded', type: 'server_error' } },
      { kind: 'reply', reply: { content: '重试成功' } },
    );
    const { text } = await collect(make(), '你好');
    expect(text).toBe('重试成功');
    expect(standin.received.length - before).toBe(3);
  });

  it('gives up on persistent 429 with a rate-limited error', async () => {
    for (let i = 0; i < 3; i++) standin.script.push({ kind: 'http-error', status: 429, error: { message: 'Throttling', code: 'Throttling.RateQuota' } });
    await expect(collect(make({ maxRetries: 2 }), '你好')).rejects.toBeInstanceOf(LlmRateLimitedError);
  });

  it.each([
    ['DashScope data_inspection_failed', 400, 'data_inspection_failed'],
    ['Zhipu 1301', 400, '1301'],
    ['Spark 10013', 400, '10013'],
  ])('never retries a content-safety refusal (%s)', async (_v, status, code) => {
    const before = standin.received.length;
    standin.script.push({ kind: 'http-error', status, error: { message: 'Input data may contain inappropriate content.', code } });
    standin.script.push({ kind: 'reply', reply: { content: '不应到达' } });
    await expect(collect(make(), '你好')).rejects.toBeInstanceOf(LlmContentFilteredError);
    expect(standin.received.length - before).toBe(1);
    standin.script.length = 0;
  });

  it('an error object mid-stream fails after the partial text was delivered', async () => {
    standin.script.push({
      kind: 'reply',
      reply: {
        content: '第一段内容已经输出了。第二段不会到达。',
        chunkChars: 4,
        errorAfterChunks: { after: 2, error: { message: 'Output data may contain inappropriate content.', code: 'data_inspection_failed' } },
      },
    });
    const got: string[] = [];
    const llm = make();
    await expect(
      (async () => {
        for await (const c of llm.stream({ messages: [{ role: 'user', content: 'x' }] })) if (c.type === 'text') got.push(c.text);
      })(),
    ).rejects.toBeInstanceOf(LlmContentFilteredError);
    expect(got.join('')).toBe('第一段内容已经输');
  });

  it('finish_reason content_filter or sensitive is a content-safety error', async () => {
    standin.script.push({ kind: 'reply', reply: { content: '部分内容', finishReason: 'content_filter' } });
    await expect(collect(make(), 'x')).rejects.toBeInstanceOf(LlmContentFilteredError);
    standin.script.push({ kind: 'reply', reply: { content: '部分内容', finishReason: 'sensitive' } });
    await expect(collect(make(), 'x')).rejects.toBeInstanceOf(LlmContentFilteredError);
  });

  it('usage a vendor puts inside the finishing choice (Moonshot) is reported, once, before finish', async () => {
    standin.script.push({ kind: 'reply', reply: { content: '月之暗面的回答。', usageIn: 'choice' } });
    const { chunks, text } = await collect(make(), '你好');
    expect(text).toBe('月之暗面的回答。');
    const usage = chunks.filter((c) => c.type === 'usage');
    expect(usage).toEqual([{ type: 'usage', usage: { promptTokens: expect.any(Number), completionTokens: 6, totalTokens: expect.any(Number) } }]);
    expect(chunks.slice(-2).map((c) => c.type)).toEqual(['usage', 'finish']);
  });

  it("Spark's code 0 / Success on every chunk is an ordinary chunk, not an error", async () => {
    standin.script.push({ kind: 'reply', reply: { content: '星火的回答，分几段送达。', chunkChars: 4, envelope: { code: 0, message: 'Success', sid: 'cha000b0001@dx' } } });
    const { chunks, text } = await collect(make(), '你好');
    expect(text).toBe('星火的回答，分几段送达。');
    expect(chunks.filter((c) => c.type === 'usage')).toHaveLength(1);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  /** Streams `content` in 4-character chunks with `event` after `after` of them; returns the text read and the error. */
  const failingStream = async (event: VendorErrorEvent, after: number) => {
    standin.script.push({ kind: 'reply', reply: { content: '第一段内容已经输出了。第二段不会到达。', chunkChars: 4, vendorErrorAfterChunks: { after, event } } });
    // What would follow if the adapter tried again: it must not.
    standin.script.push({ kind: 'reply', reply: { content: '不应到达' } });
    const before = standin.received.length;
    const got: string[] = [];
    const error = await (async () => {
      for await (const c of make().stream({ messages: [{ role: 'user', content: 'x' }] })) if (c.type === 'text') got.push(c.text);
    })().then(
      () => null,
      (err: unknown) => err,
    );
    const calls = standin.received.length - before;
    standin.script.length = 0;
    return { text: got.join(''), error, calls };
  };

  it.each([
    ['DashScope native event:error DataInspectionFailed, mid-text', vendorStreamErrors.dashscopeNative(), 2],
    ['DashScope native event:error DataInspectionFailed, before any text', vendorStreamErrors.dashscopeNative(), 0],
    ['Zhipu {code: 1301, msg}', vendorStreamErrors.zhipuV3(), 0],
    ['Spark {code: 10014, message}', vendorStreamErrors.spark(10014, 'output content audit failed'), 1],
    ['MiniMax base_resp 1027', vendorStreamErrors.minimax(), 1],
    ['Moonshot {error: {type: content_filter}}', { data: { error: { message: 'The request was rejected because it was considered high risk', type: 'content_filter' } } }, 0],
  ])('a content-safety refusal inside the stream (%s) is a content-safety error, never retried', async (_v, event, after) => {
    const { text, error, calls } = await failingStream(event, after);
    expect(error).toBeInstanceOf(LlmContentFilteredError);
    expect(calls).toBe(1);
    expect(text).toBe('第一段内容已经输出了。第二段不会到达。'.slice(0, after * 4));
  });

  it.each([
    ['Baidu Qianfan {error_code, error_msg}', vendorStreamErrors.qianfan(336003, 'the max length of current question is 11200'), '336003', 0],
    ['vLLM {object: error}', vendorStreamErrors.vllm("This model's maximum context length is 8192 tokens."), '400', 1],
    ['DashScope native InternalError', vendorStreamErrors.dashscopeNative('InternalError', 'An internal error has occured, please try again later.'), 'InternalError', 2],
  ])('another vendor error inside the stream (%s) carries the vendor message and code, not a cut stream', async (_v, event, code, after) => {
    const { error, calls } = await failingStream(event, after);
    expect(error).toBeInstanceOf(LlmUpstreamError);
    const data = event.data;
    expect(error).toMatchObject({ message: data.error_msg ?? data.message, vendorCode: code });
    expect(calls).toBe(1);
  });

  it('a throttling code in a stream error event before any text is retried like a 429', async () => {
    const before = standin.received.length;
    standin.script.push(
      {
        kind: 'reply',
        reply: {
          content: '不会送达',
          vendorErrorAfterChunks: { after: 0, event: vendorStreamErrors.dashscopeNative('Throttling.RateQuota', 'Requests rate limit exceeded, please try again later.') },
        },
      },
      { kind: 'reply', reply: { content: '重试后的回答' } },
    );
    const { text } = await collect(make(), '你好');
    expect(text).toBe('重试后的回答');
    expect(standin.received.length - before).toBe(2);
  });

  it('finish_reason length is passed on as such; DeepSeek insufficient_system_resource is a broken-off reply', async () => {
    standin.script.push({ kind: 'reply', reply: { content: '写到一半', finishReason: 'length' } });
    const { chunks } = await collect(make(), 'x');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'length' });

    const before = standin.received.length;
    standin.script.push({ kind: 'reply', reply: { content: '写到一半被打断', finishReason: 'insufficient_system_resource' } });
    await expect(collect(make(), 'x')).rejects.toMatchObject({ name: 'LlmUpstreamError', vendorCode: 'insufficient_system_resource' });
    expect(standin.received.length - before).toBe(1);
  });

  it('a server error mid-stream is an upstream error and is not retried after text was streamed', async () => {
    const before = standin.received.length;
    standin.script.push({
      kind: 'reply',
      reply: { content: '一二三四五六七八九十', chunkChars: 2, errorAfterChunks: { after: 1, error: { message: 'internal error', type: 'server_error', code: 'internal_error' } } },
    });
    await expect(collect(make(), 'x')).rejects.toBeInstanceOf(LlmUpstreamError);
    expect(standin.received.length - before).toBe(1);
  });
});

describe('the model thread', () => {
  const opts = (): OpenAiCompatibleOptions => ({ id: 'm1', label: 'M1', baseURL: standin.baseURL, apiKey: standin.apiKey, model: 'deepseek-chat', retryBaseMs: 1 });
  const until = async (cond: () => boolean) => {
    for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(cond()).toBe(true);
  };

  it('keeps streams read at once apart, each in its order', async () => {
    const t = new ModelThread();
    try {
      standin.respond = (body) => ({ content: `${body.messages.at(-1)?.content ?? ''}的回答，一共有好几段文字。`, chunkChars: 3, delayMs: 5 });
      const results = await Promise.all(['甲', '乙', '丙', '丁'].map((w) => collect(t.client(opts()), w)));
      expect(results.map((r) => r.text)).toEqual(['甲', '乙', '丙', '丁'].map((w) => `${w}的回答，一共有好几段文字。`));
      for (const r of results) expect(r.chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    } finally {
      await t.close();
    }
  });

  it('an abort, or a reader that stops early, closes the upstream call', async () => {
    const t = new ModelThread();
    try {
      standin.respond = () => ({ content: '很长的回答'.repeat(50), chunkChars: 2, delayMs: 20 });
      const ctrl = new AbortController();
      const got: string[] = [];
      const reading = (async () => {
        for await (const c of t.client(opts()).stream({ messages: [{ role: 'user', content: 'x' }], signal: ctrl.signal })) {
          if (c.type === 'text') got.push(c.text);
          if (got.length === 2) ctrl.abort();
        }
      })();
      // As in process: the SDK ends the aborted stream, which is then one without its finish.
      await expect(reading).rejects.toBeInstanceOf(LlmUpstreamError);
      await until(() => standin.open() === 0);

      for await (const c of t.client(opts()).stream({ messages: [{ role: 'user', content: 'x' }] })) if (c.type === 'text') break;
      await until(() => standin.open() === 0);
    } finally {
      await t.close();
    }
  });

  it('a thread that stops fails its streams with an upstream error; the next stream starts a new one', async () => {
    const t = new ModelThread();
    standin.respond = () => ({ content: '很长的回答'.repeat(50), chunkChars: 2, delayMs: 20 });
    const reading = (async () => {
      for await (const c of t.client(opts()).stream({ messages: [{ role: 'user', content: 'x' }] })) if (c.type === 'text') await t.close();
    })();
    await expect(reading).rejects.toMatchObject({ name: 'LlmUpstreamError', vendorCode: 'thread_exit' });
    standin.respond = () => ({ content: '又能回答了。' });
    try {
      expect((await collect(t.client(opts()), 'x')).text).toBe('又能回答了。');
    } finally {
      await t.close();
    }
  });

  it('stops once it has had no stream for its idle time, and starts again for the next', async () => {
    const t = new ModelThread(50);
    try {
      standin.respond = () => ({ content: '第一次。' });
      expect((await collect(t.client(opts()), 'x')).text).toBe('第一次。');
      expect(t.running).toBe(true);
      await until(() => !t.running);
      standin.respond = () => ({ content: '第二次。' });
      expect((await collect(t.client(opts()), 'x')).text).toBe('第二次。');
    } finally {
      await t.close();
    }
  });
});
