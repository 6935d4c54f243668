import { expect, it } from 'vitest';

// The suite runs on the current LTS: scripts/node-runtime.sh puts Node 24 first on PATH, fetching it from the npm
// registry on a machine that ships an older Node (Node 20 reached end of life on 2026-04-30).
it('runs on Node.js 24 or later', () => {
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
});
