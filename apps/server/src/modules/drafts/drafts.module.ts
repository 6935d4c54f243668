import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { DraftRepo } from './drafts.repo.js';
import { draftRoutes } from './drafts.routes.js';
import { DraftService } from './drafts.service.js';

export interface DraftsModuleDeps {
  db: Db;
  clock: Clock;
}

/** Drafts (what writing tasks and the editor produce) and personas (who a task writes as). */
export function createDrafts(d: DraftsModuleDeps) {
  const repo = new DraftRepo(d.db);
  const drafts = new DraftService(repo, d.clock);
  return { repo, drafts };
}

export type DraftsModule = ReturnType<typeof createDrafts>;

/** Routes under /api. */
export async function registerDrafts(api: FastifyInstance, m: DraftsModule) {
  await api.register(draftRoutes({ drafts: m.drafts }));
}
