import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import {
  LlmContentFilteredError,
  LlmError,
  LlmRateLimitedError,
  LlmUpstreamError,
  type ChatMessage,
  type LlmChunk,
  type LlmClient,
  type LlmRequest,
  type ToolCall,
} from './types.js';

export interface OpenAiCompatibleOptions {
  id: string;
  label: string;
  baseURL: string;
  apiKey: string;
  model: string;
  /** Attempts after the first for 429 / 5xx / connection failures, before anything was streamed. */
  maxRetries?: number;
  /** First backoff; doubled per retry, with jitter; a Retry-After header wins when shorter than 30 s. */
  retryBaseMs?: number;
  timeoutMs?: number;
}

/**
 * Content-safety refusals by vendor (docs/spec/integrations.md): DashScope `data_inspection_failed` (HTTP 400, also
 * mid-stream; `DataInspectionFailed` in its native protocol), Zhipu 1301, iFlytek Spark 10013 (input) / 10014 (output) /
 * 10019, MiniMax 1026 (input) / 1027 (output), Moonshot and OpenAI-style `content_filter` (an error type there).
 */
const CONTENT_FILTER_CODES = new Set(['data_inspection_failed', 'DataInspectionFailed', '1301', '10013', '10014', '10019', '1026', '1027', 'content_filter', 'sensitive']);
/**
 * Quota and throttling codes reported in the error body: Zhipu 1302-1305, Spark 11200-11203, DashScope Throttling*,
 * Baidu Qianfan 336501 / 336502 (RPM / TPM).
 */
const RATE_LIMIT_CODES = /^(1302|1303|1304|1305|1120[0-3]|33650[12]|Throttling.*|rate_limit_exceeded)$/;
const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
/** vendorCode of a stream that ended without a finish_reason: the connection was cut (proxy, vendor restart). */
export const STREAM_CUT = 'stream_cut';
/**
 * DeepSeek's finish_reason when its inference capacity ran out and the reply was broken off: an incomplete answer, not a
 * finished one; like a cut stream, worth another attempt while nothing reached the caller.
 */
const INSUFFICIENT_RESOURCE = 'insufficient_system_resource';

/** The `code` a vendor puts in every ordinary chunk or body (Spark HTTP: 0 / "Success"; Zhipu's v3 API: 200). */
const OK_CODES = new Set<unknown>([0, '0', 200, '200', 'success', 'Success', 'SUCCESS', null, '']);

/**
 * An error a vendor sends as a data event without the top-level `error` key the SDK looks for (the SDK then yields it
 * as if it were a chunk, and the stream ends without a finish_reason). The shapes, all seen inside SSE streams:
 * `{code, message}` (DashScope's native protocol after `event:error`; Spark), `{code, msg}` (Zhipu's v3 API),
 * `{error_code, error_msg}` (Baidu Qianfan), `{object: "error", message, type, code}` (vLLM's ErrorResponse),
 * `{base_resp: {status_code, status_msg}}` (MiniMax). Returns it as the `{code, type, message}` object of an OpenAI error
 * body, or null for an ordinary chunk (a few property reads: it runs on every chunk).
 */
function vendorErrorOf(chunk: object): { code: string; type: string; message: string } | null {
  const c = chunk as Record<string, unknown>;
  let code: unknown;
  let message: unknown;
  let type: unknown;
  if (c.error_code !== undefined && !OK_CODES.has(c.error_code)) [code, message] = [c.error_code, c.error_msg ?? c.message];
  else if (c.object === 'error') [code, message, type] = [c.code, c.message, c.type];
  // A `code` beside real choices is not an error event (no vendor reports a failure together with content).
  else if (c.code !== undefined && !OK_CODES.has(c.code) && !(Array.isArray(c.choices) && c.choices.length)) [code, message, type] = [c.code, c.message ?? c.msg, c.type];
  else if (c.base_resp !== undefined && c.base_resp !== null) {
    const b = c.base_resp as { status_code?: unknown; status_msg?: unknown };
    if (b.status_code === undefined || OK_CODES.has(b.status_code)) return null;
    [code, message] = [b.status_code, b.status_msg];
  } else return null;
  const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
  return { code: str(code), type: str(type), message: str(message) || `vendor error ${str(code) || 'without a code'}` };
}

const codeOf = (err: APIError): string => {
  const e = err.error as { code?: unknown; type?: unknown } | undefined;
  const code = e?.code ?? err.code ?? e?.type ?? err.type;
  return code === undefined || code === null ? '' : String(code);
};

/** Maps an SDK error to ours; `retryable` says whether another attempt may help. */
export function classifyLlmError(err: unknown): { error: LlmError; retryable: boolean; retryAfterMs?: number } {
  // A cut stream is a connection failure: worth another attempt when nothing reached the caller yet.
  if (err instanceof LlmUpstreamError && (err.vendorCode === STREAM_CUT || err.vendorCode === INSUFFICIENT_RESOURCE)) return { error: err, retryable: true };
  if (err instanceof LlmError) return { error: err, retryable: false };
  if (err instanceof APIUserAbortError) return { error: new LlmUpstreamError('aborted', 'abort'), retryable: false };
  if (err instanceof APIConnectionError) return { error: new LlmUpstreamError(`connection failed: ${err.message}`, 'connection'), retryable: true };
  if (err instanceof APIError) {
    const code = codeOf(err);
    const type = String((err.error as { type?: unknown } | undefined)?.type ?? err.type ?? '');
    const message = err.message;
    if (CONTENT_FILTER_CODES.has(code) || CONTENT_FILTER_CODES.has(type) || /data_inspection_failed|inappropriate content/i.test(message)) {
      return { error: new LlmContentFilteredError(message, code || String(err.status)), retryable: false };
    }
    const retryAfter = Number(err.headers?.get('retry-after'));
    const retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 && retryAfter <= 30 ? retryAfter * 1000 : undefined;
    if (err.status === 429 || RATE_LIMIT_CODES.test(code)) {
      return { error: new LlmRateLimitedError(message, code || String(err.status)), retryable: true, retryAfterMs };
    }
    if (err.status !== undefined && RETRY_STATUSES.has(err.status)) {
      return { error: new LlmUpstreamError(message, code || String(err.status)), retryable: true, retryAfterMs };
    }
    return { error: new LlmUpstreamError(message, code || String(err.status ?? 'stream')), retryable: false };
  }
  return { error: new LlmUpstreamError(err instanceof Error ? err.message : String(err)), retryable: false };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

interface DeltaWithReasoning {
  content?: string | null;
  reasoning_content?: string | null;
  tool_calls?: Array<{ index: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }>;
}

/** Our messages in the wire format (assistant tool calls and tool results included). */
export function toWireMessages(messages: ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    if (m.role === 'tool') return { role: 'tool', content: m.content, tool_call_id: m.toolCallId };
    if (m.role === 'assistant' && m.toolCalls?.length) {
      return {
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
      };
    }
    return { role: m.role, content: m.content };
  });
}

/** Any OpenAI-compatible chat-completions endpoint (DeepSeek, Qwen, Spark, Kimi, GLM, Doubao, Ollama, vLLM...). */
export class OpenAiCompatibleLlm implements LlmClient {
  readonly isAi = true;
  readonly id: string;
  readonly label: string;
  private readonly client: OpenAI;
  private readonly maxRetries: number;
  private readonly retryBaseMs: number;

  constructor(private readonly opts: OpenAiCompatibleOptions) {
    this.id = opts.id;
    this.label = opts.label;
    this.maxRetries = opts.maxRetries ?? 3;
    this.retryBaseMs = opts.retryBaseMs ?? 1000;
    // Retries are ours (the SDK would also retry 409 and cannot tell content-safety refusals apart).
    this.client = new OpenAI({ baseURL: opts.baseURL, apiKey: opts.apiKey, maxRetries: 0, timeout: opts.timeoutMs ?? 120_000 });
  }

  async *stream(req: LlmRequest): AsyncIterable<LlmChunk> {
    for (let attempt = 0; ; attempt++) {
      let yielded = false;
      try {
        const stream = await this.client.chat.completions.create(
          {
            model: this.opts.model,
            messages: toWireMessages(req.messages),
            ...(req.tools?.length ? { tools: req.tools.map((t) => ({ type: 'function' as const, function: t })) } : {}),
            stream: true,
            stream_options: { include_usage: true },
            ...(req.maxTokens ? { max_tokens: req.maxTokens } : {}),
            ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
          },
          { signal: req.signal },
        );
        let finish: string | null = null;
        // The vendor's count, the last one reported (some repeat a running total): yielded once, before the finish.
        let usage: WireUsage | undefined;
        // Tool calls arrive as deltas keyed by index: the first names the call, later ones append argument text.
        const calls = new Map<number, ToolCall>();
        for await (const chunk of stream) {
          const failed = vendorErrorOf(chunk);
          // Classified as the SDK's own mid-stream `{"error": ...}` is: content safety never retried, the vendor's message kept.
          if (failed) throw new APIError(undefined, failed, undefined, undefined);
          const choice = chunk.choices?.[0];
          // Top level (OpenAI, DeepSeek, DashScope, Zhipu), or inside the finishing choice (Moonshot).
          const counted = chunk.usage ?? (choice as { usage?: WireUsage | null } | undefined)?.usage;
          if (counted) usage = counted;
          if (!choice) continue;
          const delta = (choice.delta ?? {}) as DeltaWithReasoning;
          if (delta.reasoning_content) {
            yielded = true;
            yield { type: 'reasoning', text: delta.reasoning_content };
          }
          if (delta.content) {
            yielded = true;
            yield { type: 'text', text: delta.content };
          }
          for (const d of delta.tool_calls ?? []) {
            const call = calls.get(d.index) ?? { id: '', name: '', arguments: '' };
            if (d.id) call.id = d.id;
            if (d.function?.name) call.name += d.function.name;
            if (d.function?.arguments) call.arguments += d.function.arguments;
            calls.set(d.index, call);
          }
          if (choice.finish_reason) finish = choice.finish_reason;
        }
        // Every complete reply carries a finish_reason; without one (and the SDK stops quietly at EOF, [DONE] or
        // not) the reply was cut short and must not be taken, and charged, as a whole answer.
        if (!finish) throw new LlmUpstreamError('stream ended without finish_reason', STREAM_CUT);
        if (finish === 'content_filter' || (finish as string | null) === 'sensitive') {
          throw new LlmContentFilteredError(`finish_reason ${finish}`, finish ?? undefined);
        }
        if ((finish as string) === INSUFFICIENT_RESOURCE) throw new LlmUpstreamError(`finish_reason ${finish}`, INSUFFICIENT_RESOURCE);
        for (const [index, call] of [...calls.entries()].sort((a, b) => a[0] - b[0])) {
          if (!call.name) throw new LlmUpstreamError(`tool call ${index} without a function name`, 'tool_call');
          yielded = true;
          yield { type: 'tool_call', call: { ...call, id: call.id || `call_${index}` } };
        }
        if (usage) {
          yielded = true;
          yield { type: 'usage', usage: { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens, totalTokens: usage.total_tokens } };
        }
        yield { type: 'finish', reason: finish };
        return;
      } catch (err) {
        const { error, retryable, retryAfterMs } = classifyLlmError(err);
        // Once text reached the caller a retry would duplicate it: the caller keeps the partial text instead.
        if (!retryable || yielded || attempt >= this.maxRetries || req.signal?.aborted) throw error;
        const backoff = retryAfterMs ?? this.retryBaseMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
        await sleep(backoff, req.signal);
      }
    }
  }
}
