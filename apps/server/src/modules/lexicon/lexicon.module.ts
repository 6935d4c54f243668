import type { Db } from '../../db/client.js';
import type { InvalidationBus } from '../../cache/bus.js';
import { SensitiveWordRepo } from './lexicon.repo.js';
import { SensitiveLexicon } from './lexicon.service.js';

export interface LexiconModuleDeps {
  db: Db;
  /** Console edits reach every process's matcher through it. */
  cacheBus?: InvalidationBus;
}

/**
 * The sensitive-word check (933) that writing tasks, graphic notes and topic angles all pass: an area of its own so
 * none of them reaches into another for it. No routes of its own; operators edit it in the console (模型与来源, admin-models.service.ts) or with the admin CLI (lexicon:*).
 */
export function createLexicon(d: LexiconModuleDeps) {
  const lexicon = new SensitiveLexicon(new SensitiveWordRepo(d.db), d.cacheBus);
  return { lexicon };
}
