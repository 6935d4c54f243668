import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import type { InvalidationBus } from '../../cache/bus.js';
import { NoticeRepo } from './notice.repo.js';
import { noticeRoutes } from './notice.routes.js';
import { NoticeService } from './notice.service.js';
import { PersonalNotices } from './personal-notices.js';
import { UnreadCounts } from './unread-cache.js';

export interface NoticeModuleDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  /** Drops every process's cached unread counts on a write. */
  cacheBus: InvalidationBus;
  /** Users whose bubble counts this process holds (CACHE_MAX_ENTRIES). */
  cacheMaxEntries: number;
}

/** The notice centre: announcements (admin CLI) and personal notices other modules send through `personal.notify`. */
export function createNotice(d: NoticeModuleDeps) {
  const repo = new NoticeRepo(d.db);
  const unread = new UnreadCounts(d.cacheBus, d.cacheMaxEntries);
  const personal = new PersonalNotices(repo, d.clock, d.log, unread);
  const notices = new NoticeService(repo, d.clock, unread, d.db);
  return { repo, unread, personal, notices };
}

export type NoticeModule = ReturnType<typeof createNotice>;

/** Routes under /api. */
export async function registerNotice(api: FastifyInstance, m: NoticeModule) {
  await api.register(noticeRoutes({ notices: m.notices }));
}
