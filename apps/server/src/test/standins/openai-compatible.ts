import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-in for an OpenAI-compatible chat-completions endpoint (DeepSeek, DashScope compatible mode,
 * Spark, GLM...), speaking the streaming wire format exactly: `data: <json>\n\n` events, `: keep-alive`
 * comment lines, reasoning_content deltas before content, a final usage chunk with `choices: []` when
 * `stream_options.include_usage` is set, `data: [DONE]`; errors as HTTP status + `{error:{message,type,code}}`
 * or as an error object in the middle of a stream.
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
  finishReason?: 'stop' | 'length' | 'content_filter' | 'sensitive';
  /** After this many content chunks, send `data: {"error":...}` and end the stream (DashScope style). */
  errorAfterChunks?: { after: number; error: { message: string; type?: string; code?: string | number } };
  /** After this many content chunks, end the response cleanly with no finish_reason, usage or `[DONE]` (a cut connection). */
  cutAfterChunks?: number;
  /** Pause between chunks, to measure time to first byte or hold streams open. */
  delayMs?: number;
  /** A `: keep-alive` comment before the first chunk and between chunks (DeepSeek under load). */
  keepAlive?: boolean;
}

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
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
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
      await send(chunk({}, reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop')));
      if (body.stream_options?.include_usage) {
        const prompt = approxTokens(body.messages.map((m) => m.content).join(''));
        const completion = approxTokens((reply.reasoning ?? '') + reply.content);
        await send({ ...base, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } });
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
