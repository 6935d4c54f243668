import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import { UserRepo } from './user.repo.js';
import { userRoutes } from './user.routes.js';
import { UserService } from './user.service.js';

export interface UserModuleDeps {
  db: Db;
  clock: Clock;
  /** APP_DOWNLOAD_URL: the release reply offers it; null hides the download modal. */
  downloadUrl?: string | null;
}

/** Profiles, settings, the global settings and client event logs. */
export function createUser(d: UserModuleDeps) {
  const repo = new UserRepo(d.db);
  // Payment is open in every deployment (the sandbox gateway stands in for an unconfigured vendor).
  const users = new UserService(repo, d.clock, true);
  return { repo, users, downloadUrl: d.downloadUrl ?? null };
}

export type UserModule = ReturnType<typeof createUser>;

/** Routes under /api. */
export async function registerUser(api: FastifyInstance, m: UserModule) {
  await api.register(userRoutes({ users: m.users, downloadUrl: m.downloadUrl }));
}
