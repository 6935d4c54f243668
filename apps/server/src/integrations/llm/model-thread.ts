import { Worker } from 'node:worker_threads';
import type { OpenAiCompatibleOptions } from './openai-compatible.js';
import { LlmContentFilteredError, LlmError, LlmRateLimitedError, LlmUpstreamError, type LlmChunk, type LlmClient, type LlmRequest } from './types.js';

/** What the process asks of its model thread. */
export type ToModelThread =
  { type: 'stream'; id: number; opts: OpenAiCompatibleOptions; req: Pick<LlmRequest, 'messages' | 'maxTokens' | 'temperature' | 'tools'> } | { type: 'abort'; id: number };

/** An LlmError as it crosses the thread boundary. */
export interface ThreadError {
  name: string;
  message: string;
  vendorCode?: string;
}

/** What the model thread answers: the chunks of every stream read in one turn of its loop, then each stream's end. */
export type FromModelThread = { type: 'chunks'; items: Array<[id: number, chunks: LlmChunk[]]> } | { type: 'end'; id: number; error?: ThreadError };

/**
 * Under the test runner and `tsx` this module is TypeScript, and so is the thread's entry: the thread registers tsx's
 * loader before importing it (a worker's `--import` does not apply to its entry).
 */
function sourceWorker(): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./model-thread-worker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
}

const ERRORS: Record<string, new (message: string, vendorCode?: string) => LlmError> = {
  LlmContentFilteredError,
  LlmRateLimitedError,
  LlmUpstreamError,
};

interface OpenStream {
  /** The thread reading it. */
  worker: Worker;
  push(chunks: LlmChunk[]): void;
  end(error?: LlmError): void;
}

/**
 * The process's model thread: every OpenAI-compatible model stream is read there, off the event loop that serves
 * requests. Reading a stream is the SDK's work per chunk (the HTTP body as a web stream, the SSE decoder, a JSON parse,
 * a chain of async iterators): with 200 tasks writing at once that was a quarter of the main thread's time, and the
 * creates of the creators still waiting queued behind it. The thread starts on the first stream (an idle server holds
 * no second heap; one left without streams for a minute stops) and hands back what it read once per turn of its loop.
 * Errors come back as the same LlmError classes; a thread that dies fails its streams with LlmUpstreamError and the
 * next stream starts a new one.
 */
export class ModelThread {
  private worker: Worker | null = null;
  private seq = 0;
  private readonly open = new Map<number, OpenStream>();
  private idle: NodeJS.Timeout | null = null;

  /** `idleMs`: a thread with no stream for this long stops (its heap goes with it); the next stream starts another. */
  constructor(private readonly idleMs = 60_000) {}

  /** Streams `req` from the model `opts` describes, read in the thread. Same chunks, same errors as in process. */
  async *stream(opts: OpenAiCompatibleOptions, req: LlmRequest): AsyncIterable<LlmChunk> {
    if (req.signal?.aborted) throw new LlmUpstreamError('aborted', 'abort');
    const id = ++this.seq;
    const queue: LlmChunk[] = [];
    let ended = false;
    let failure: LlmError | undefined;
    let wake: (() => void) | null = null;
    const worker = this.started();
    this.open.set(id, {
      worker,
      push: (chunks) => {
        queue.push(...chunks);
        wake?.();
      },
      end: (error) => {
        ended = true;
        failure = error;
        wake?.();
      },
    });
    const abort = () => worker.postMessage({ type: 'abort', id } satisfies ToModelThread);
    req.signal?.addEventListener('abort', abort, { once: true });
    worker.postMessage({
      type: 'stream',
      id,
      opts,
      req: { messages: req.messages, maxTokens: req.maxTokens, temperature: req.temperature, tools: req.tools },
    } satisfies ToModelThread);
    try {
      for (;;) {
        if (queue.length) {
          yield* queue.splice(0);
          continue;
        }
        if (ended) {
          if (failure) throw failure;
          return;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    } finally {
      req.signal?.removeEventListener('abort', abort);
      // The caller stopped reading early (an error of its own, a break): the thread stops the upstream call.
      if (!ended) worker.postMessage({ type: 'abort', id } satisfies ToModelThread);
      this.open.delete(id);
      if (!this.open.size && this.worker === worker) {
        this.idle = setTimeout(() => {
          this.idle = null;
          if (!this.open.size) void this.close();
        }, this.idleMs);
        this.idle.unref();
      }
    }
  }

  /** Whether the thread is started. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** A client for one model whose streams are read in this thread. */
  client(opts: OpenAiCompatibleOptions): LlmClient {
    return { id: opts.id, label: opts.label, isAi: true, stream: (req) => this.stream(opts, req) };
  }

  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private started(): Worker {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (this.worker) return this.worker;
    const w = import.meta.url.endsWith('.ts') ? sourceWorker() : new Worker(new URL('./model-thread-worker.js', import.meta.url));
    w.on('message', (m: FromModelThread) => {
      if (m.type === 'chunks') for (const [id, chunks] of m.items) this.open.get(id)?.push(chunks);
      else this.open.get(m.id)?.end(m.error && new (ERRORS[m.error.name] ?? LlmUpstreamError)(m.error.message, m.error.vendorCode));
    });
    const lost = (why: string) => {
      if (this.worker === w) this.worker = null;
      for (const s of this.open.values()) if (s.worker === w) s.end(new LlmUpstreamError(`模型调用线程已退出（${why}）`, 'thread_exit'));
    };
    w.on('error', (err) => lost(err.message));
    w.on('exit', (code) => lost(`code ${code}`));
    // Never what keeps a stopping process alive.
    w.unref();
    this.worker = w;
    return w;
  }
}
