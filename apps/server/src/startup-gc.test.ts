import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { collectStartupGarbage } from './startup-gc.js';

it('collects an unreachable WebAssembly memory at once (what PGlite leaves behind after initdb)', async () => {
  // Only the WeakRef points at it once this returns.
  const ref = (() => new WeakRef(new WebAssembly.Memory({ initial: 2048 })))();
  // A WeakRef keeps its target alive until the current job ends.
  await nextTurn();
  collectStartupGarbage();
  expect(ref.deref()).toBeUndefined();
});
