import { TOKEN_NAME } from '@inkstone/shared';
import { load, loginThroughOutbox, startBareFastify, startProduct } from './lib.js';

/** GET /api/auth/isLogin with a valid token (session lookup in the embedded database) vs a bare Fastify route. */
export async function run() {
  const product = await startProduct();
  const bare = await startBareFastify();
  try {
    const token = await loginThroughOutbox(product.url, '13900001111');
    const ours = await load({ url: `${product.url}/api/auth/isLogin`, headers: { [TOKEN_NAME]: token } });
    const baseline = await load({ url: `${bare.url}/bare` });
    return {
      scenario: 'GET /api/auth/isLogin (valid token, PGlite) vs bare Fastify route',
      ours,
      baseline,
      throughputRatio: Number((ours.requestsPerSec / baseline.requestsPerSec).toFixed(3)),
      p99Ratio: Number((ours.p99Ms / Math.max(baseline.p99Ms, 1)).toFixed(2)),
    };
  } finally {
    await product.stop();
    await bare.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) run().then((r) => console.log(JSON.stringify(r, null, 2)));
