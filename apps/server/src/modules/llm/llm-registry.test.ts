import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import type { LlmModelsRepo } from './llm-models.repo.js';
import type { LlmRegistry } from './llm-registry.js';

const model = (id: string) => ({ id, label: `模型 ${id}`, baseURL: 'http://127.0.0.1:9/v1', model: 'm', apiKey: 'sk-test', capabilities: [] });

/** Counts (and can hold) the registry's reads of the admin-added models; the reads themselves are the real ones. */
function instrument(registry: LlmRegistry) {
  // The repo is the registry's own; wrapping its list() only counts and delays the real query.
  const repo = (registry as unknown as { repo: LlmModelsRepo }).repo;
  const list = repo.list.bind(repo);
  const state = { reads: 0, gate: null as Promise<void> | null };
  repo.list = async () => {
    state.reads += 1;
    const rows = await list();
    await state.gate;
    return rows;
  };
  return state;
}

describe('LlmRegistry reads of the admin-added models', () => {
  let t: TestApp;
  let registry: LlmRegistry;
  let reads: ReturnType<typeof instrument>;
  beforeAll(async () => {
    t = await startTestApp();
    registry = t.container.writing.llms;
    reads = instrument(registry);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('many callers at once after a change share one read', async () => {
    await registry.add(model('shared-1'));
    const before = reads.reads;
    const found = await Promise.all(Array.from({ length: 50 }, () => registry.get('shared-1')));
    expect(found.every((m) => m.id === 'shared-1')).toBe(true);
    expect(reads.reads - before).toBe(1);
    // Fresh now: no read at all.
    await registry.get('shared-1');
    expect(reads.reads - before).toBe(1);
  });

  it('a change made while a read is under way is not hidden by that read', async () => {
    await registry.add(model('early'));
    let release!: () => void;
    reads.gate = new Promise<void>((r) => (release = r));
    // A read starts (and is held) before the next model is added...
    const held = registry.list();
    await new Promise((r) => setTimeout(r, 50));
    reads.gate = null;
    await registry.add(model('late'));
    release();
    expect((await held).map((m) => m.id)).toContain('early');
    // ...so its answer is not kept as current: the next list has the new model.
    expect((await registry.list()).map((m) => m.id)).toContain('late');
    expect((await registry.get('late')).id).toBe('late');
  });

  it('an unknown model is refused, once per caller, with a read shared by callers at the same time', async () => {
    const before = reads.reads;
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => registry.get('no-such-model')));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(reads.reads - before).toBeLessThanOrEqual(2);
  });
});
