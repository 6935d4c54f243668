import { TOKEN_NAME } from '@inkstone/shared';
import { alternate, loginThroughOutbox, startBareFastify, startProduct } from './lib.js';

export const figures = ['is-login'] as const;

/** GET /api/auth/isLogin with a valid token (the built product, embedded database) vs a bare Fastify route. */
export async function run() {
  const product = await startProduct();
  const bare = await startBareFastify();
  try {
    const token = await loginThroughOutbox(product.url, '13900001111');
    const check = (await (await fetch(`${product.url}/api/auth/isLogin`, { headers: { [TOKEN_NAME]: token } })).json()) as { code: number; data: boolean };
    if (check.code !== 0 || check.data !== true) throw new Error(`isLogin sanity check failed: ${JSON.stringify(check)}`);
    const r = await alternate({ url: `${product.url}/api/auth/isLogin`, headers: { [TOKEN_NAME]: token } }, { url: `${bare.url}/bare` });
    return {
      scenario: 'GET /api/auth/isLogin (valid token, built product, PGlite) vs bare Fastify route',
      ...r,
      figures: [
        { id: 'is-login', value: `${r.throughputRatio}x (${r.ours.requestsPerSec} vs ${r.baseline.requestsPerSec} req/s)`, pass: r.throughputRatio >= 0.5 && r.ours.non2xx === 0 },
      ],
    };
  } finally {
    await product.stop();
    await bare.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) void run().then((r) => console.log(JSON.stringify(r, null, 2)));
