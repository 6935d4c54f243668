import type { Db } from '../../db/client.js';
import { SensitiveWordRepo } from './lexicon.repo.js';
import { SensitiveLexicon } from './lexicon.service.js';

export interface LexiconModuleDeps {
  db: Db;
}

/**
 * The sensitive-word check (933) that writing tasks, graphic notes and topic angles all pass: an area of its own so
 * none of them reaches into another for it. No routes; operators edit it through the admin CLI (lexicon:*).
 */
export function createLexicon(d: LexiconModuleDeps) {
  const lexicon = new SensitiveLexicon(new SensitiveWordRepo(d.db));
  return { lexicon };
}
