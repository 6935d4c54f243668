import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { UserService } from '../user/user.service.js';
import { flagsRoutes } from './flags.routes.js';
import { FlagsService, type FlagAttributeSource } from './flags.service.js';

/** Feature flags (GrowthBook payload from FEATURES_FILE); a bad file throws here, before anything is opened. */
export function createFlags(config: Pick<Config, 'FEATURES_FILE'>) {
  return { flags: FlagsService.fromConfig(config) };
}

export type FlagsModule = ReturnType<typeof createFlags>;

/** What the targeting attributes are read from: the user's row (through the user area) and their bound accounts. */
export interface FlagAttributeDeps {
  users: Pick<UserService, 'requireUser' | 'toProfile'>;
  /** Platforms of the user's bound (not unbound) accounts. */
  platforms(userId: number): Promise<string[]>;
}

const split = (list: string) => list.split('|').filter(Boolean);

/** The server-side attributes flags are targeted on (id, full phone, VIP, tracks, bound platforms). */
export function flagAttributes(d: FlagAttributeDeps): FlagAttributeSource {
  return async (userId) => {
    // A user deleted since the session was read is evaluated as logged out.
    const row = await d.users.requireUser(userId).catch(() => null);
    if (!row) return null;
    return {
      id: String(row.id),
      phone: row.phone ?? '',
      // The VIP rule (an active VIP type before expiry) stays the user area's.
      vip: d.users.toProfile(row).vipInfo.isVip,
      tracks: [...new Set([...split(row.sysTrackSelected), ...split(row.userTrackSelected)])],
      platforms: [...new Set(await d.platforms(userId))].sort(),
    };
  };
}

/** Routes under /api. */
export async function registerFlags(api: FastifyInstance, m: FlagsModule) {
  await api.register(flagsRoutes({ flags: m.flags }));
}
