/** Chat-completion style text generation, streamed. */

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  /** An assistant turn; `toolCalls` when the model asked for tools (its content may then be empty). */
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  /** The result of one tool call, answered under the call's id. */
  | { role: 'tool'; content: string; toolCallId: string };

/** A function the model may call (OpenAI function calling); `parameters` is a JSON Schema object. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One complete tool call: `arguments` is the model's JSON text, parsed (and validated) by the caller. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** What the offline writer works from (real models read the messages instead). */
export interface OfflineContext {
  purpose: 'article' | 'outline' | 'section' | 'review' | 'ability' | 'title';
  /** The user's own words (the prompt, or the text an ability works on). */
  content: string;
  title?: string;
  persona?: { name: string; platform: string; industry: string; audience: string; tone: string; tabooWords: string[] } | null;
  /** Parsed text of quoted files. */
  quotes?: Array<{ name: string; text: string }>;
  sources?: Array<{ n: number; title: string; snippet: string; url: string }>;
  ability?: string;
  tone?: string;
  heading?: string;
  count?: number;
}

export interface LlmRequest {
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  offline?: OfflineContext;
  /** Functions the model may call; only AI clients honour them (the offline writer never calls tools). */
  tools?: ToolDefinition[];
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export type LlmChunk =
  | { type: 'reasoning'; text: string }
  | { type: 'text'; text: string }
  /** A tool call, yielded once its streamed deltas are complete (before `finish` with reason `tool_calls`). */
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: LlmUsage }
  | { type: 'finish'; reason: string };

export interface LlmClient {
  /** Model configuration id. */
  readonly id: string;
  readonly label: string;
  /** False for the offline writer: its output must never be presented as AI. */
  readonly isAi: boolean;
  /** Streams reasoning (if any), then text, then usage (if the vendor reports it) and finish. Throws LlmError subclasses. */
  stream(req: LlmRequest): AsyncIterable<LlmChunk>;
}

export class LlmError extends Error {
  constructor(
    message: string,
    /** Vendor code or HTTP status, for logs only. */
    readonly vendorCode?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
/** The vendor's content-safety system refused the input or the output. Never retried. */
export class LlmContentFilteredError extends LlmError {}
/** Still throttled after our retries (429, 503, vendor quota codes). */
export class LlmRateLimitedError extends LlmError {}
/** Anything else: bad key, unreachable, malformed stream, 5xx after retries. */
export class LlmUpstreamError extends LlmError {}

/** Collects a whole completion (plans, reviews, titles). */
export async function complete(llm: LlmClient, req: LlmRequest): Promise<{ text: string; usage: LlmUsage | null }> {
  let text = '';
  let usage: LlmUsage | null = null;
  for await (const c of llm.stream(req)) {
    if (c.type === 'text') text += c.text;
    else if (c.type === 'usage') usage = c.usage;
  }
  return { text, usage };
}
