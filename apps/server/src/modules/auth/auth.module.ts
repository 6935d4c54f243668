import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import type { InvalidationBus } from '../../cache/bus.js';
import type { SmsSender } from '../../integrations/sms/types.js';
import type { WechatLogin } from '../../integrations/wechat/types.js';
import { OutboxSmsSender } from '../../integrations/sms/outbox.js';
import { smsOutboxRoutes } from '../../integrations/sms/outbox.routes.js';
import { wechatSandboxRoutes } from '../../integrations/wechat/sandbox.js';
import { wechatMpEventRoutes } from '../../integrations/wechat/mp.routes.js';
import type { UserRepo } from '../user/user.repo.js';
import type { UserService } from '../user/user.service.js';
import { AuthRepo } from './auth.repo.js';
import { authRoutes } from './auth.routes.js';
import { AuthService } from './auth.service.js';
import { SessionRepo } from './session.repo.js';
import { SessionService } from './session.service.js';
import { SmsCodeRepo } from './sms-code.repo.js';
import { SmsCodeService } from './sms-code.service.js';

export interface AuthModuleDeps {
  db: Db;
  key: Buffer;
  clock: Clock;
  log: FastifyBaseLogger;
  sms: SmsSender;
  wechat: WechatLogin;
  userRepo: UserRepo;
  users: UserService;
  /** Runs inside the transaction that creates a new account (the welcome points grant). */
  onRegistered: (userId: number, tx: DbOrTx) => Promise<unknown>;
  /** Carries logouts and revocations to every process's session cache. */
  cacheBus: InvalidationBus;
  /** Sessions held in this process's cache (CACHE_MAX_ENTRIES). */
  cacheMaxEntries: number;
}

/** Login: sessions, SMS codes, WeChat QR scenes, hand-over tokens, account deletion. */
export function createAuth(d: AuthModuleDeps) {
  const sessions = new SessionService(new SessionRepo(d.db), d.clock, d.cacheBus, d.cacheMaxEntries);
  const codes = new SmsCodeService(new SmsCodeRepo(d.db), d.sms, d.key, d.clock, d.log);
  const auth = new AuthService(d.db, new AuthRepo(d.db), d.userRepo, d.users, codes, sessions, d.wechat, d.key, d.clock, d.onRegistered);
  return { sessions, codes, auth, sms: d.sms, wechat: d.wechat };
}

export type AuthModule = ReturnType<typeof createAuth>;

/** Routes under /api: login and account calls, the SMS outbox (sandbox) and the WeChat scan callback (sandbox page or MP events). */
export async function registerAuth(api: FastifyInstance, m: AuthModule, config: Config, users: UserService) {
  const { auth, codes, sessions } = m;
  await api.register(authRoutes({ auth, codes, sessions, users }));
  if (m.sms instanceof OutboxSmsSender) await api.register(smsOutboxRoutes(m.sms));
  if (m.wechat.sandbox) await api.register(wechatSandboxRoutes((scene, openid) => auth.recordScan(scene, openid)));
  else await api.register(wechatMpEventRoutes({ token: config.WECHAT_MP_TOKEN!, recordScan: (scene, openid) => auth.recordScan(scene, openid) }));
}
