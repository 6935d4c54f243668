import PQueue from 'p-queue';
import type { LlmChunk, LlmClient, LlmRequest } from './types.js';

/**
 * A model's own limit on streams open at once (the vendor's concurrency / rate limit), shared by every caller of that
 * model in this process. Model calls are I/O: a writing task waits here only when the model itself is saturated.
 */
export class ModelSlots {
  readonly queue: PQueue;

  constructor(concurrency: number) {
    this.queue = new PQueue({ concurrency });
  }

  set concurrency(n: number) {
    this.queue.concurrency = n;
  }

  /**
   * Resolves with a release function once a slot is free. A request aborted while waiting is refused at once and its
   * turn, when it comes, is handed straight on (p-queue's own signal would only be checked when the turn comes).
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      let settled = false;
      const onAbort = () => {
        if (settled) return;
        settled = true;
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      // Dropping the queue's promise is safe: the task only resolves (it hands the slot over or releases it).
      void this.queue.add(
        () =>
          new Promise<void>((release) => {
            signal?.removeEventListener('abort', onAbort);
            if (settled) return release();
            settled = true;
            resolve(release);
          }),
      );
    });
  }
}

/** `client` whose streams each hold one of `slots` from the request until the stream ends. */
export function withSlots(client: LlmClient, slots: ModelSlots): LlmClient {
  return {
    id: client.id,
    label: client.label,
    isAi: client.isAi,
    async *stream(req: LlmRequest): AsyncIterable<LlmChunk> {
      const release = await slots.acquire(req.signal);
      try {
        yield* client.stream(req);
      } finally {
        release();
      }
    },
  };
}
