import type { Db } from '../../db/client.js';
import type { InvalidationBus } from '../../cache/bus.js';
import { SourceSwitchRepo } from './sources.repo.js';
import { SourceSwitches } from './sources.service.js';

export interface SourcesModuleDeps {
  db: Db;
  cacheBus?: InvalidationBus;
}

/**
 * The console's switches over the external sources configured in the environment (online search, trends): writing
 * and topics read them at use time, the console (模型与来源) writes them. No routes of its own.
 */
export function createSources(d: SourcesModuleDeps) {
  return { switches: new SourceSwitches(new SourceSwitchRepo(d.db), d.cacheBus) };
}
