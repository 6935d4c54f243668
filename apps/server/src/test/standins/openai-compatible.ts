import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-in for an OpenAI-compatible chat-completions endpoint (DeepSeek, DashScope compatible mode,
 * Spark, GLM...), speaking the streaming wire format exactly: `data: <json>\n\n` events, `: keep-alive`
 * comment lines, reasoning_content deltas before content, a final usage chunk with `choices: []` when
 * `stream_options.include_usage` is set, `data: [DONE]`; errors as HTTP status + `{error:{message,type,code}}`
 * or as an error object in the middle of a stream. Vendors' own variations, each named for the vendor it copies:
 * usage inside the finishing choice (`usageIn: 'choice'`, Moonshot), fields on every chunk (`envelope`, Spark),
 * error events without the `error` key (`vendorErrorAfterChunks` with one of `vendorStreamErrors`), finish reasons
 * `length`, `sensitive` (Zhipu) and `insufficient_system_resource` (DeepSeek).
 */

export interface ChatRequestBody {
  model: string;
  /** `content` is '' where the wire had null (an assistant turn that only called tools). */
  messages: Array<{
    role: string;
    content: string;
    tool_call_id?: string;
    tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  }>;
  tools?: Array<{ type: 'function'; function: { name: string; description?: string; parameters?: unknown } }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  temperature?: number;
}

export interface StandinReply {
  reasoning?: string;
  content: string;
  /**
   * Function calls, streamed after the content as OpenAI does: per call a first delta with index, id, type and the
   * name (arguments ''), then the arguments text in pieces of `chunkChars`; the finish reason becomes `tool_calls`.
   */
  toolCalls?: Array<{ name: string; arguments: string | Record<string, unknown>; id?: string }>;
  /** Characters per content chunk (default 8). */
  chunkChars?: number;
  /**
   * `length`: cut at max_tokens (every vendor); `content_filter` (OpenAI, DeepSeek, Moonshot); `sensitive` (Zhipu: the
   * output was stopped by its safety check); `insufficient_system_resource` (DeepSeek: broken off, inference capacity ran out).
   */
  finishReason?: 'stop' | 'length' | 'content_filter' | 'sensitive' | 'insufficient_system_resource';
  /**
   * Where the usage goes. `chunk` (default; OpenAI, DeepSeek, DashScope compatible mode): a final chunk with `choices: []`
   * when `stream_options.include_usage` is set. `choice` (Moonshot, which documents it so): inside the finishing
   * chunk's `choices[0].usage`, whatever stream_options says, and no usage chunk.
   */
  usageIn?: 'chunk' | 'choice';
  /**
   * Extra top-level fields on every chunk. iFlytek Spark's HTTP API sends `code: 0, message: "Success", sid` with each
   * chunk: an ordinary chunk, not an error.
   */
  envelope?: Record<string, unknown>;
  /** After this many content chunks, send `data: {"error":...}` and end the stream (DashScope style). */
  errorAfterChunks?: { after: number; error: { message: string; type?: string; code?: string | number } };
  /**
   * After this many content chunks, send an error event without the `error` key (see `vendorStreamErrors`) and end the
   * stream without finish_reason or `[DONE]`, as those vendors do.
   */
  vendorErrorAfterChunks?: { after: number; event: VendorErrorEvent };
  /** After this many content chunks, end the response cleanly with no finish_reason, usage or `[DONE]` (a cut connection). */
  cutAfterChunks?: number;
  /** Pause between chunks, to measure time to first byte or hold streams open. */
  delayMs?: number;
  /** A `: keep-alive` comment before the first chunk and between chunks (DeepSeek under load). */
  keepAlive?: boolean;
}

/** One SSE event as a vendor writes it: optional `id:` and `event:` fields and `:` comment lines, then `data:` JSON. */
export interface VendorErrorEvent {
  id?: string;
  event?: string;
  comments?: string[];
  data: Record<string, unknown>;
}

/**
 * Error events that carry no top-level `error` key, so the openai SDK (whose stream only throws for `data.error`) hands
 * them over as chunks. Each names what it copies; the codes and texts are the vendors' own where known.
 */
export const vendorStreamErrors = {
  /**
   * DashScope's native protocol (`X-DashScope-SSE: enable`), as gateways that relay it pass it on: `id:`, `event:error`,
   * the `:HTTP_STATUS/400` comment, then `data:{code, message, request_id}` with no space after the colons. Content
   * safety is `DataInspectionFailed` / "Output data may contain inappropriate content."; throttling `Throttling.RateQuota`.
   */
  dashscopeNative: (code = 'DataInspectionFailed', message = 'Output data may contain inappropriate content.'): VendorErrorEvent => ({
    id: '1',
    event: 'error',
    comments: ['HTTP_STATUS/400'],
    data: { code, message, request_id: randomUUID() },
  }),
  /** Zhipu's v3 API body: `{code, msg, success: false}`; 1301 is its content-safety code, with its Chinese text. */
  zhipuV3: (code: number = 1301, msg = '系统检测到输入或生成内容可能包含不安全或敏感内容，请您避免输入易产生敏感内容的提示语，感谢您的配合。'): VendorErrorEvent => ({
    data: { code, msg, success: false },
  }),
  /** Baidu Qianfan's error body `{error_code, error_msg}` beside the reply id (the code and text here are examples). */
  qianfan: (errorCode: number, errorMsg: string): VendorErrorEvent => ({ data: { id: `as-${randomUUID().slice(0, 10)}`, error_code: errorCode, error_msg: errorMsg } }),
  /**
   * iFlytek Spark's HTTP API puts `code`/`message`/`sid` on every chunk (0 / "Success"); a refusal is taken to come in the
   * same envelope with its audit code (10013 input, 10014 output) and no choices.
   */
  spark: (code: number, message: string): VendorErrorEvent => ({ data: { code, message, sid: `cha000b${randomUUID().slice(0, 8)}@dx`, choices: [] } }),
  /**
   * MiniMax: every body carries `base_resp: {status_code, status_msg}` (0 when fine); its safety check answers 1026
   * ("input new_sensitive") or 1027 ("output new_sensitive").
   */
  minimax: (statusCode = 1027, statusMsg = 'output new_sensitive'): VendorErrorEvent => ({
    data: { id: randomUUID().replace(/-/g, ''), choices: [], base_resp: { status_code: statusCode, status_msg: statusMsg } },
  }),
  /** vLLM's ErrorResponse written into the stream: `{object: "error", message, type, param, code}`. */
  vllm: (message: string, code = 400): VendorErrorEvent => ({ data: { object: 'error', message, type: 'BadRequestError', param: null, code } }),
};

export type ScriptedStep =
  | { kind: 'reply'; reply: StandinReply }
  | { kind: 'http-error'; status: number; error: { message: string; type?: string; code?: string | number | null }; headers?: Record<string, string> };

export interface OpenAiStandin {
  url: string;
  /** Base URL to configure (`<url>/v1`). */
  baseURL: string;
  apiKey: string;
  received: ChatRequestBody[];
  /** Steps answered before the responder, first in first out. */
  script: ScriptedStep[];
  /** Default answer for unscripted requests. */
  respond: (body: ChatRequestBody) => StandinReply;
  /** Streams currently open. */
  open(): number;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const approxTokens = (s: string) => Math.max(1, Math.ceil(s.length / 1.5));

export async function startOpenAiStandin(opts: { apiKey?: string; model?: string } = {}): Promise<OpenAiStandin> {
  const apiKey = opts.apiKey ?? `sk-standin-${randomUUID().slice(0, 8)}`;
  let openStreams = 0;
  const state: Pick<OpenAiStandin, 'received' | 'script' | 'respond'> = {
    received: [],
    script: [],
    respond: (body) => ({ content: `收到：${body.messages.at(-1)?.content.slice(0, 40) ?? ''}。这是来自模拟模型的回答。` }),
  };

  const sendError = (res: http.ServerResponse, status: number, error: { message: string; type?: string; code?: string | number | null }, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: { message: error.message, type: error.type ?? 'invalid_request_error', code: error.code ?? null } }));
  };

  const stream = async (res: http.ServerResponse, body: ChatRequestBody, reply: StandinReply) => {
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    const base = { id, object: 'chat.completion.chunk', created, model: body.model, system_fingerprint: 'fp_standin' };
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    openStreams += 1;
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    const send = async (obj: unknown) => {
      if (closed) return;
      if (reply.delayMs) await sleep(reply.delayMs);
      if (reply.keepAlive) res.write(': keep-alive\n\n');
      res.write(`data: ${JSON.stringify(obj)}\n\n`);
    };
    const head = reply.envelope ? { ...base, ...reply.envelope } : base;
    const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra?: Record<string, unknown>) => ({
      ...head,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish, ...extra }],
    });
    const usage = () => {
      const prompt = approxTokens(body.messages.map((m) => m.content).join(''));
      const completion = approxTokens((reply.reasoning ?? '') + reply.content);
      return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
    };
    try {
      await send(chunk({ role: 'assistant', content: '' }));
      const size = reply.chunkChars ?? 8;
      for (let i = 0; reply.reasoning && i < reply.reasoning.length; i += size) {
        await send(chunk({ content: null, reasoning_content: reply.reasoning.slice(i, i + size) }));
      }
      let n = 0;
      for (let i = 0; i < reply.content.length; i += size) {
        if (reply.errorAfterChunks && n === reply.errorAfterChunks.after) {
          const e = reply.errorAfterChunks.error;
          await send({ error: { message: e.message, type: e.type ?? 'invalid_request_error', code: e.code ?? null } });
          return;
        }
        if (reply.vendorErrorAfterChunks && n === reply.vendorErrorAfterChunks.after) {
          const e = reply.vendorErrorAfterChunks.event;
          if (reply.delayMs) await sleep(reply.delayMs);
          if (closed) return;
          const lines = [e.id !== undefined && `id:${e.id}`, e.event && `event:${e.event}`, ...(e.comments ?? []).map((c) => `:${c}`), `data:${JSON.stringify(e.data)}`];
          res.write(`${lines.filter(Boolean).join('\n')}\n\n`);
          return;
        }
        if (reply.cutAfterChunks !== undefined && n === reply.cutAfterChunks) return;
        await send(chunk({ content: reply.content.slice(i, i + size) }));
        n += 1;
      }
      for (const [index, call] of (reply.toolCalls ?? []).entries()) {
        const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
        const id = call.id ?? `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
        await send(chunk({ tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] }));
        for (let i = 0; i < args.length; i += size) {
          await send(chunk({ tool_calls: [{ index, function: { arguments: args.slice(i, i + size) } }] }));
        }
      }
      const finish = reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');
      if (reply.usageIn === 'choice') await send(chunk({}, finish, { usage: usage() }));
      else {
        await send(chunk({}, finish));
        if (body.stream_options?.include_usage) await send({ ...head, choices: [], usage: usage() });
      }
      if (!closed) res.write('data: [DONE]\n\n');
    } finally {
      openStreams -= 1;
      res.end();
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://standin');
      if (req.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) {
        sendError(res, 404, { message: 'Not found', type: 'invalid_request_error', code: 'not_found' });
        return;
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        sendError(res, 401, { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' });
        return;
      }
      let body: ChatRequestBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody;
      } catch {
        sendError(res, 400, { message: 'We could not parse the JSON body of your request.', code: 'invalid_json' });
        return;
      }
      if (!body.model || !Array.isArray(body.messages) || body.messages.length === 0) {
        sendError(res, 400, { message: 'model and messages are required', code: 'invalid_request' });
        return;
      }
      // As OpenAI does: every tool message answers a call the assistant made earlier in the conversation.
      const asked = new Set(body.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id)));
      const stray = body.messages.find((m) => m.role === 'tool' && (!m.tool_call_id || !asked.has(m.tool_call_id)));
      if (stray) {
        sendError(res, 400, { message: "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'.", code: 'invalid_request' });
        return;
      }
      for (const m of body.messages) m.content = (m.content as string | null) ?? '';
      if (opts.model && body.model !== opts.model) {
        sendError(res, 404, { message: `The model \`${body.model}\` does not exist`, code: 'model_not_found' });
        return;
      }
      state.received.push(body);
      const step = state.script.shift() ?? { kind: 'reply' as const, reply: state.respond(body) };
      if (step.kind === 'http-error') {
        sendError(res, step.status, step.error, step.headers);
        return;
      }
      if (!body.stream) {
        const r = step.reply;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${randomUUID()}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: r.content, reasoning_content: r.reasoning ?? null }, finish_reason: r.finishReason ?? 'stop' }],
            usage: { prompt_tokens: 1, completion_tokens: approxTokens(r.content), total_tokens: 1 + approxTokens(r.content) },
          }),
        );
        return;
      }
      void stream(res, body, step.reply);
    });
  });
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    apiKey,
    get received() {
      return state.received;
    },
    get script() {
      return state.script;
    },
    set script(v) {
      state.script = v;
    },
    get respond() {
      return state.respond;
    },
    set respond(fn) {
      state.respond = fn;
    },
    open: () => openStreams,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
