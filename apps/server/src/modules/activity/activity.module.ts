import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import { activityRoutes } from './activity.routes.js';
import { RecallRepo } from './recall.repo.js';
import { RecallService } from './recall.service.js';

export interface ActivityModuleDeps {
  db: Db;
  clock: Clock;
}

/** Marketing activities outside points: the recall channel report. (Rewards paid in points live in modules/vip.) */
export function createActivity(d: ActivityModuleDeps) {
  return { recall: new RecallService(new RecallRepo(d.db), d.clock) };
}

export type ActivityModule = ReturnType<typeof createActivity>;

/** Routes under /api. */
export async function registerActivity(api: FastifyInstance, m: ActivityModule) {
  await api.register(activityRoutes({ recall: m.recall }));
}
