// Files the server reads at run time (SQL migrations, the sensitive-word lexicon) ship beside the compiled code.
import { cpSync } from 'node:fs';
const copy = (from, to) => cpSync(new URL(`../apps/server/src/${from}`, import.meta.url), new URL(`../apps/server/dist/${to}`, import.meta.url), { recursive: true });
copy('db/migrations', 'db/migrations');
copy('modules/writing/lexicon', 'modules/writing/lexicon');
