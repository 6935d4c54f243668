import type { FastifyInstance } from 'fastify';
import type { InvalidationBus } from '../../cache/bus.js';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import type { JobQueue } from '../../jobs/types.js';
import type { PaymentGateways } from '../../integrations/payment/index.js';
import type { UserService } from '../user/user.service.js';
import { ActivityRepo } from './activity.repo.js';
import { ActivityService } from './activity.service.js';
import { CatalogueRepo } from './catalogue.repo.js';
import { CatalogueService } from './catalogue.service.js';
import { CodeRepo } from './code.repo.js';
import { CodeService } from './code.service.js';
import { OrderRepo } from './order.repo.js';
import { ORDER_EXPIRY_JOB, OrderService, type OrderRow } from './order.service.js';
import { payRoutes } from './pay.routes.js';
import { sandboxPayRoutes } from '../../integrations/payment/sandbox.routes.js';
import { PointsRepo } from './points.repo.js';
import { RefundRepo } from './refund.repo.js';
import { RefundService } from './refund.service.js';
import { PointsService } from './points.service.js';
import { VipRepo } from './vip.repo.js';
import { vipRoutes } from './vip.routes.js';
import { VipService } from './vip.service.js';

export interface VipModuleDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  jobs: JobQueue;
  publicUrl: string;
  payments: PaymentGateways;
  users: UserService;
  /** Price changes reach every process's cached prices through it. */
  cacheBus?: InvalidationBus;
  /** Runs inside the settling transaction (the payment-success notice). */
  onPaid: (order: OrderRow, tx: DbOrTx) => Promise<void>;
}

/** Points, the shop (plans, bundles, orders, payment), VIP state, redeem codes and rewards. */
export function createVip(config: Config, d: VipModuleDeps) {
  const points = new PointsService(new PointsRepo(d.db), d.clock, d.cacheBus);
  const catalogue = new CatalogueService(new CatalogueRepo(d.db));
  const vip = new VipService(new VipRepo(d.db), d.users, d.clock);
  const orders = new OrderService(new OrderRepo(d.db), d.payments, catalogue, points, vip, d.clock, d.log, {
    ttlMs: config.PAY_ORDER_TTL_MINUTES * 60_000,
    queryIntervalMs: 5000,
    publicUrl: d.publicUrl,
    onPaid: d.onPaid,
  });
  const refunds = new RefundService(new RefundRepo(d.db), d.payments, points, vip, d.clock, d.log, d.publicUrl);
  orders.useRefunds((gateway, refund) => refunds.replyTo(gateway, refund));
  const redeemCodes = new CodeService(new CodeRepo(d.db), points, vip, d.clock);
  const activity = new ActivityService(new ActivityRepo(d.db), points, d.users, d.clock, config.WELCOME_POINTS);
  // Order expiry belongs to the worker role; a minute is enough because expiry is also applied lazily on reads.
  if (config.roles.has('worker')) d.jobs.schedule(ORDER_EXPIRY_JOB, 60_000, () => orders.sweepExpired());
  return { points, catalogue, vip, orders, refunds, redeemCodes, activity, payments: d.payments };
}

export type VipModule = ReturnType<typeof createVip>;

/** Routes under /api: shop, points, codes, rewards, payment notifications and (sandbox gateway) the checkout page. */
export async function registerVip(api: FastifyInstance, m: VipModule) {
  const { points, catalogue, vip, orders, redeemCodes, activity } = m;
  await api.register(vipRoutes({ points, catalogue, vip, orders, codes: redeemCodes, activity, openPayment: true }));
  await api.register(payRoutes({ orders, refunds: m.refunds }));
  if (m.payments.sandbox) await api.register(sandboxPayRoutes(m.payments.sandbox));
}
