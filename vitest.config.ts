import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const shared = fileURLToPath(new URL('./packages/shared/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@inkstone/shared': shared } },
  test: {
    // Two cores: more workers only add PGlite start-up contention.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias: { '@inkstone/shared': shared } },
        test: { name: 'unit', include: ['packages/*/src/**/*.test.ts', 'apps/web/src/**/*.test.ts'], environment: 'node' },
      },
      {
        resolve: { alias: { '@inkstone/shared': shared } },
        test: {
          name: 'integration',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
