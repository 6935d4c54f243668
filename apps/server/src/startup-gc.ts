import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * One full garbage collection, once start-up is done. On a fresh data directory PGlite runs initdb in a WebAssembly
 * instance of its own (a 128 MB memory and its file bundle) that is garbage as soon as the database is open; an idle
 * server may not run a major collection for a long time, and until it does those ~300 MB stay resident (idle RSS
 * measured 450-870 MB from one start to the next, issue 11). `gc` is not exposed without a flag on the command line,
 * so it is asked for here, once.
 */
export function collectStartupGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
}
