import { setTimeout as sleep } from 'node:timers/promises';
import { startBareFastify, startProduct, treeRssMb } from './lib.js';

export const figures = ['idle-rss'] as const;

/** The first reading: start-up is done, V8 still holds the heap start-up grew (its memory reducer runs ~8 s later). */
const EARLY_MS = 10_000;
/**
 * The figure: idle after the periodic work of an idle server has run once. The recovery sweeps (every 5-20 s) have run
 * a few rounds, whose queries grow PGlite's memory, V8 has given back what start-up grew, and the first hot-topic
 * refresh (30 s after start, jieba in a child process) is over: a reading at 30 s fell on that refresh, and depended on
 * whether it had started yet.
 */
const SETTLE_MS = 45_000;

/**
 * Resident memory of the product (and any process it started: a browser) idle on embedded defaults: a fresh data
 * directory, PGlite, every role, no traffic; read EARLY_MS and SETTLE_MS after it started listening (the figure is the
 * latter). Baseline: a bare Fastify process, same run.
 */
export async function run() {
  const product = await startProduct({ NODE_ENV: 'production' });
  const bare = await startBareFastify();
  try {
    await sleep(EARLY_MS);
    const early = treeRssMb(product.pid);
    await sleep(SETTLE_MS - EARLY_MS);
    const ours = treeRssMb(product.pid);
    const baseline = treeRssMb(bare.pid);
    return {
      scenario: `idle RSS ${SETTLE_MS / 1000} s after start (and ${EARLY_MS / 1000} s), embedded defaults (PGlite, all roles), process tree`,
      oursMb: ours,
      earlyMb: early,
      baselineMb: baseline,
      ratio: Number((ours / baseline).toFixed(2)),
      figures: [
        {
          id: 'idle-rss',
          value: `${ours} MB at ${SETTLE_MS / 1000} s (${(ours / baseline).toFixed(1)}x bare Fastify's ${baseline} MB); ${early} MB at ${EARLY_MS / 1000} s`,
          pass: ours <= 250,
        },
      ],
    };
  } finally {
    await product.stop();
    await bare.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) void run().then((r) => console.log(JSON.stringify(r, null, 2)));
