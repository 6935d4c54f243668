import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { collectStartupGarbage } from './startup-gc.js';

it('collects an unreachable WebAssembly memory at once (what PGlite leaves behind after initdb)', async () => {
  let memory: WebAssembly.Memory | null = new WebAssembly.Memory({ initial: 2048 });
  const ref = new WeakRef(memory);
  memory = null;
  // A WeakRef keeps its target alive until the current job ends.
  await nextTurn();
  collectStartupGarbage();
  expect(ref.deref()).toBeUndefined();
});
