import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activityConfigSchema,
  bundleQrBody,
  codeExchangeResultSchema,
  contestTimestampSchema,
  couponExchangeBody,
  dailyClaimSchema,
  envelope,
  homepageActivitySchema,
  invitePopupSchema,
  ledgerEntrySchema,
  orderItemSchema,
  orderNoQuery,
  orderStatusSchema,
  pageOf,
  pageQuery,
  payQrSchema,
  pointCostSchema,
  pointsBundleSchema,
  rightsCodeQuery,
  userScoreSchema,
  vipPlanSchema,
  vipQrBody,
  vipUserInfoSchema,
} from '@inkstone/shared';
import { ok } from '../../http/envelope.js';
import { userIdOf } from '../../http/auth-guard.js';
import type { TypedApp } from '../../http/typed-app.js';
import type { ActivityService } from './activity.service.js';
import type { CatalogueService } from './catalogue.service.js';
import type { CodeService } from './code.service.js';
import type { OrderService } from './order.service.js';
import type { PointsService } from './points.service.js';
import type { VipService } from './vip.service.js';

export interface VipDeps {
  catalogue: CatalogueService;
  points: PointsService;
  vip: VipService;
  orders: OrderService;
  codes: CodeService;
  activity: ActivityService;
  openPayment: boolean;
}

export function vipRoutes(deps: VipDeps) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    catalogueRoutes(app, deps);
    pointsRoutes(app, deps);
    orderRoutes(app, deps);
    codeRoutes(app, deps);
    activityRoutes(app, deps);
  };
}

/** The catalogue: VIP plans and points bundles (public). */
function catalogueRoutes(app: TypedApp, deps: VipDeps) {
  const tags = ['vip'];

  app.get(
    '/vip/subscribe/category',
    {
      schema: { tags, summary: '会员套餐列表（价格单位：分）', response: { 200: envelope(z.array(vipPlanSchema)) } },
    },
    async () => ok(await deps.catalogue.plans()),
  );

  app.get(
    '/vip/score/bundle/category',
    {
      schema: { tags, summary: '积分包分类（与 list 相同的在售积分包）', response: { 200: envelope(z.array(pointsBundleSchema)) } },
    },
    async () => ok(await deps.catalogue.bundles()),
  );

  app.get(
    '/vip/score/bundle/list',
    {
      schema: { tags, summary: '积分包列表（价格单位：分）', response: { 200: envelope(z.array(pointsBundleSchema)) } },
    },
    async () => ok(await deps.catalogue.bundles()),
  );
}

/** The points balance (and the daily visit reward), ledger and prices; VIP state. */
function pointsRoutes(app: TypedApp, deps: VipDeps) {
  const tags = ['vip'];
  const required = { auth: 'required' as const };

  app.get(
    '/vip/user/score',
    {
      schema: { tags, summary: '积分余额 {score, totalScore}；当天首次读取时自动发放每日登录奖励', response: { 200: envelope(userScoreSchema) } },
      config: required,
    },
    async (req) => {
      const userId = userIdOf(req);
      await deps.activity.onVisit(userId);
      return ok(await deps.points.balance(userId));
    },
  );

  app.get(
    '/vip/score/consume/list',
    {
      schema: { tags, summary: '积分明细（新的在前）', querystring: pageQuery, response: { 200: envelope(pageOf(ledgerEntrySchema)) } },
      config: required,
    },
    async (req) => ok(await deps.points.history(userIdOf(req), req.query.pageNum, req.query.pageSize)),
  );

  app.get(
    '/vip/score/point/consume',
    {
      schema: { tags, summary: '积分消耗字典 [{feature, name, point}]', response: { 200: envelope(z.array(pointCostSchema)) } },
    },
    async () => ok(await deps.points.costs()),
  );

  app.get(
    '/vip/user/info',
    {
      schema: { tags, summary: '会员信息', response: { 200: envelope(vipUserInfoSchema) } },
      config: required,
    },
    async (req) => ok(await deps.vip.info(userIdOf(req))),
  );
}

/** Orders: payment QR codes (abuse-prone: a tighter per-client budget), status, list. */
function orderRoutes(app: TypedApp, deps: VipDeps) {
  const tags = ['vip'];
  const required = { auth: 'required' as const };
  const tight = { auth: 'required' as const, rateLimit: { max: 20, timeWindow: '1 minute' } };

  app.post(
    '/vip/pay/qrcode',
    {
      schema: { tags, summary: '购买会员：创建订单并返回支付二维码', body: vipQrBody, response: { 200: envelope(payQrSchema) } },
      config: tight,
    },
    async (req) => ok(await deps.orders.createVipOrder(userIdOf(req), req.body.categoryId, req.body.payChannel)),
  );

  app.post(
    '/vip/pay/score-bundle/qrcode',
    {
      schema: { tags, summary: '购买积分包：创建订单并返回支付二维码', body: bundleQrBody, response: { 200: envelope(payQrSchema) } },
      config: tight,
    },
    async (req) => ok(await deps.orders.createBundleOrder(userIdOf(req), req.body.bundleId, req.body.payChannel)),
  );

  app.get(
    '/vip/pay/order/status',
    {
      schema: { tags, summary: '会员订单状态', querystring: orderNoQuery, response: { 200: envelope(orderStatusSchema) } },
      config: required,
    },
    async (req) => ok(await deps.orders.status(userIdOf(req), req.query.orderNo, 'vip')),
  );

  app.get(
    '/vip/pay/score-bundle/order/status',
    {
      schema: { tags, summary: '积分包订单状态', querystring: orderNoQuery, response: { 200: envelope(orderStatusSchema) } },
      config: required,
    },
    async (req) => ok(await deps.orders.status(userIdOf(req), req.query.orderNo, 'bundle')),
  );

  app.get(
    '/vip/order/list',
    {
      schema: { tags, summary: '我的订单（/orderInfo 页）', querystring: pageQuery, response: { 200: envelope(pageOf(orderItemSchema)) } },
      config: required,
    },
    async (req) => ok(await deps.orders.list(userIdOf(req), req.query.pageNum, req.query.pageSize)),
  );
}

/** Redeem codes (兑换码, 权益码): abuse-prone, so the tighter per-client budget too. */
function codeRoutes(app: TypedApp, deps: VipDeps) {
  const tags = ['vip'];
  const tight = { auth: 'required' as const, rateLimit: { max: 20, timeWindow: '1 minute' } };

  app.post(
    '/vip/coupon-code/exchange',
    {
      schema: { tags, summary: '兑换码兑换', body: couponExchangeBody, response: { 200: envelope(codeExchangeResultSchema) } },
      config: tight,
    },
    async (req) => ok(await deps.codes.redeem(userIdOf(req), req.body.code)),
  );

  app.get(
    '/rightsCode/exchange',
    {
      schema: { tags, summary: '权益码兑换', querystring: rightsCodeQuery, response: { 200: envelope(codeExchangeResultSchema) } },
      config: tight,
    },
    async (req) => ok(await deps.codes.redeem(userIdOf(req), req.query.code)),
  );
}

/** Invitations, daily and return rewards, the home page activity, the contest clock. */
function activityRoutes(app: TypedApp, deps: VipDeps) {
  const tags = ['activity'];
  const required = { auth: 'required' as const };

  app.get(
    '/vip/activity/config',
    {
      schema: { tags, summary: '活动配置（邀请规则、每日/回归奖励）', response: { 200: envelope(activityConfigSchema) } },
    },
    async () => ok(await deps.activity.config(deps.openPayment)),
  );

  app.get(
    '/vip/activity/invite/popup',
    {
      schema: { tags, summary: '邀请弹窗：邀请码、规则、一次性的邀请成功信息', response: { 200: envelope(invitePopupSchema) } },
      config: required,
    },
    async (req) => ok(await deps.activity.invitePopup(userIdOf(req))),
  );

  app.post(
    '/vip/activity/daily/claim',
    {
      schema: { tags, summary: '领取每日奖励（中国日历日一次；久未领取另得回归奖励）', response: { 200: envelope(dailyClaimSchema) } },
      config: required,
    },
    async (req) => ok(await deps.activity.claimDaily(userIdOf(req))),
  );

  app.get(
    '/activity/homepage/config',
    {
      schema: { tags, summary: '首页活动配置', response: { 200: envelope(homepageActivitySchema) } },
      config: { auth: 'optional' },
    },
    async (req) => ok(await deps.activity.homepage(req.session?.userId ?? null)),
  );

  app.get(
    '/contest/activity/timestamp',
    {
      schema: { tags, summary: '服务器时间与当前比赛窗口', response: { 200: envelope(contestTimestampSchema) } },
    },
    async () => ok({ serverTime: deps.activity.serverTime(), contest: await deps.activity.currentContest() }),
  );
}
