import { describe, expect, it } from 'vitest';
import { ModelSlots, withSlots } from './limited.js';
import type { LlmChunk, LlmClient } from './types.js';

/** A client whose streams stay open until released, counting how many are open. */
function heldClient() {
  let open = 0;
  let peak = 0;
  const releases: (() => void)[] = [];
  const client: LlmClient = {
    id: 'm',
    label: 'm',
    isAi: true,
    async *stream(): AsyncIterable<LlmChunk> {
      open += 1;
      peak = Math.max(peak, open);
      try {
        await new Promise<void>((r) => releases.push(r));
        yield { type: 'text', text: 'x' };
      } finally {
        open -= 1;
      }
    },
  };
  return { client, releases, stats: () => ({ open, peak }) };
}

const drain = async (s: AsyncIterable<LlmChunk>) => {
  for await (const _ of s) void _;
};
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('model slots', () => {
  it('holds at most the model limit of streams open; the next starts when one ends', async () => {
    const h = heldClient();
    const limited = withSlots(h.client, new ModelSlots(2));
    const runs = [1, 2, 3].map(() => drain(limited.stream({ messages: [] })));
    await tick();
    expect(h.stats().open).toBe(2);
    h.releases.shift()!();
    await tick();
    expect(h.stats().open).toBe(2);
    while (h.releases.length) h.releases.shift()!();
    await tick();
    h.releases.shift()?.();
    await Promise.all(runs);
    expect(h.stats().peak).toBe(2);
  });

  it('a request aborted while waiting for a slot never takes one', async () => {
    const h = heldClient();
    const limited = withSlots(h.client, new ModelSlots(1));
    const first = drain(limited.stream({ messages: [] }));
    const ac = new AbortController();
    const second = drain(limited.stream({ messages: [], signal: ac.signal }));
    await tick();
    ac.abort(new Error('user stopped'));
    await expect(second).rejects.toThrow();
    h.releases.shift()!();
    await first;
    expect(h.stats().peak).toBe(1);
  });
});
