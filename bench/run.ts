import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Runs every scenario in bench/ (each file exporting `run`) one after another and prints its figures. */
const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv[2];
const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !['run.ts', 'lib.ts'].includes(f) && (!only || f.includes(only)));
for (const file of files) {
  const mod = (await import(`./${file}`)) as { run?: () => Promise<unknown> };
  if (typeof mod.run !== 'function') continue;
  console.log(`\n== ${file}`);
  try {
    console.log(JSON.stringify(await mod.run(), null, 2));
  } catch (err) {
    console.error(`${file} failed:`, err);
    process.exitCode = 1;
  }
}
