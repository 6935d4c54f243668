// Files the server reads at run time (SQL migrations, the sensitive-word lexicon) ship beside the compiled code.
// An optional argument names another output folder under apps/server (a private build, see scripts/build-private.sh).
import { cpSync } from 'node:fs';
const out = process.argv[2] ?? 'dist';
const copy = (from, to) => cpSync(new URL(`../apps/server/src/${from}`, import.meta.url), new URL(`../apps/server/${out}/${to}`, import.meta.url), { recursive: true });
copy('db/migrations', 'db/migrations');
copy('modules/lexicon/words', 'modules/lexicon/words');
