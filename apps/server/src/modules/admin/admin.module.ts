import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import type { SmsCodeService } from '../auth/sms-code.service.js';
import type { SessionService } from '../auth/session.service.js';
import type { VipModule } from '../vip/vip.module.js';
import { AccessRepo } from './access.repo.js';
import { AccessService } from './access.service.js';
import { AdminRoutes } from './admin-route.js';
import { accessRoutes } from './admin.routes.js';
import { AuditRepo } from './audit.repo.js';
import { AuditService, gatewayActor } from './audit.service.js';
import { AdminOrdersRepo } from './orders.repo.js';
import { AdminOrdersService } from './orders.service.js';
import { orderRoutes } from './orders.routes.js';
import { AdminUsersRepo } from './users.repo.js';
import { AdminUsersService } from './users.service.js';
import { userRoutes } from './users.routes.js';

export interface AdminModuleDeps {
  db: Db;
  clock: Clock;
  codes: SmsCodeService;
  sessions: SessionService;
  vip: Pick<VipModule, 'points' | 'vip' | 'refunds'>;
}

/** The operators' console (/api/admin): roles, console sessions, the audit log and the console's routes. */
export function createAdmin(config: Config, d: AdminModuleDeps) {
  const audit = new AuditService(new AuditRepo(d.db));
  const access = new AccessService(new AccessRepo(d.db), d.codes, audit, d.clock, {
    idleMs: config.ADMIN_SESSION_IDLE_MINUTES * 60_000,
    maxAgeMs: config.ADMIN_SESSION_MAX_HOURS * 3_600_000,
  });
  const routes = new AdminRoutes(access);
  const users = new AdminUsersService(new AdminUsersRepo(d.db), d.vip.points, d.vip.vip, d.sessions, audit, d.clock);
  const orders = new AdminOrdersService(new AdminOrdersRepo(d.db), d.vip.refunds, audit);
  // Refund results arrive from gateways, not from a console user: audited as the gateway.
  d.vip.refunds.useAudit((tx, change) => audit.record(tx, gatewayActor, change));
  return { audit, access, routes, users, orders };
}

export type AdminModule = ReturnType<typeof createAdmin>;

/** Routes under /api/admin; every one declared through `m.routes` (AdminRoutes) with its lowest role. */
export async function registerAdmin(api: FastifyInstance, m: AdminModule) {
  m.routes.enforceOn(api);
  await api.register(accessRoutes(m.routes, m));
  await api.register(userRoutes(m.routes, m.users));
  await api.register(orderRoutes(m.routes, m.orders));
}
