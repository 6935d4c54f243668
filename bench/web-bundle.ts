import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
export const HOME_JS_BUDGET_BYTES = 300 * 1024;

/** Gzip size of what the home route loads up front: the entry chunk and its static imports (modulepreload). */
export function initialJsGzip(): { bytes: number; files: string[] } {
  const html = readFileSync(`${dist}index.html`, 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const bytes = files.reduce((sum, f) => sum + gzipSync(readFileSync(`${dist}${f}`)).length, 0);
  return { bytes, files };
}

export async function run() {
  const { bytes, files } = initialJsGzip();
  return {
    scenario: 'home route initial JS, gzip (build with `npm run build` first)',
    kilobytes: Number((bytes / 1024).toFixed(1)),
    files: files.length,
    budgetKilobytes: HOME_JS_BUDGET_BYTES / 1024,
    ratioToBudget: Number((bytes / HOME_JS_BUDGET_BYTES).toFixed(3)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) run().then((r) => console.log(JSON.stringify(r, null, 2)));
