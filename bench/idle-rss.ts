import { setTimeout as sleep } from 'node:timers/promises';
import { startBareFastify, startProduct, treeRssMb } from './lib.js';

export const figures = ['idle-rss'] as const;

const SETTLE_MS = 10_000;

/**
 * Resident memory of the product (and any process it started: a browser) idle on embedded defaults: a fresh data
 * directory, PGlite, every role, no traffic; measured SETTLE_MS after it started listening. Baseline: a bare Fastify
 * process, same run.
 */
export async function run() {
  const product = await startProduct({ NODE_ENV: 'production' });
  const bare = await startBareFastify();
  try {
    await sleep(SETTLE_MS);
    const ours = treeRssMb(product.pid);
    const baseline = treeRssMb(bare.pid);
    return {
      scenario: `idle RSS ${SETTLE_MS / 1000} s after start, embedded defaults (PGlite, all roles), process tree`,
      oursMb: ours,
      baselineMb: baseline,
      ratio: Number((ours / baseline).toFixed(2)),
      figures: [{ id: 'idle-rss', value: `${ours} MB (${(ours / baseline).toFixed(1)}x bare Fastify's ${baseline} MB)`, pass: ours <= 250 }],
    };
  } finally {
    await product.stop();
    await bare.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) void run().then((r) => console.log(JSON.stringify(r, null, 2)));
