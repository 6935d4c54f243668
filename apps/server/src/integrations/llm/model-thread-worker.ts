import { parentPort } from 'node:worker_threads';
import type { FromModelThread, ToModelThread } from './model-thread.js';
import { OpenAiCompatibleLlm } from './openai-compatible.js';
import { LlmError, LlmUpstreamError, type LlmChunk } from './types.js';

/** The model thread (model-thread.ts): reads the process's model streams and hands back their chunks. */
const port = parentPort!;
/** One client per model settings, as in the process (its SDK instance keeps its connections). */
const clients = new Map<string, OpenAiCompatibleLlm>();
/** Settings seen at most (a console that keeps changing keys must not grow this without end). */
const MAX_CLIENTS = 64;
const running = new Map<number, AbortController>();

/** Chunks read in this turn of the loop, for every stream: one message per turn, not one per chunk. */
let pending = new Map<number, LlmChunk[]>();
let scheduled = false;
const flush = () => {
  scheduled = false;
  if (!pending.size) return;
  const items = [...pending];
  pending = new Map();
  port.postMessage({ type: 'chunks', items } satisfies FromModelThread);
};

async function run(m: Extract<ToModelThread, { type: 'stream' }>) {
  const key = JSON.stringify(m.opts);
  let llm = clients.get(key);
  if (!llm) {
    if (clients.size >= MAX_CLIENTS) clients.clear();
    clients.set(key, (llm = new OpenAiCompatibleLlm(m.opts)));
  }
  const ctrl = new AbortController();
  running.set(m.id, ctrl);
  let error: LlmError | undefined;
  try {
    for await (const chunk of llm.stream({ ...m.req, signal: ctrl.signal })) {
      const list = pending.get(m.id);
      if (list) list.push(chunk);
      else pending.set(m.id, [chunk]);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    }
  } catch (err) {
    error = err instanceof LlmError ? err : new LlmUpstreamError(err instanceof Error ? err.message : String(err));
  } finally {
    running.delete(m.id);
  }
  // What was read goes before the end.
  flush();
  port.postMessage({ type: 'end', id: m.id, ...(error ? { error: { name: error.name, message: error.message, vendorCode: error.vendorCode } } : {}) } satisfies FromModelThread);
}

port.on('message', (m: ToModelThread) => {
  if (m.type === 'abort') running.get(m.id)?.abort();
  else void run(m);
});
