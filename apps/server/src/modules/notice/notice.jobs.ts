import type { FastifyInstance } from 'fastify';
import type { PersonalNotices } from './personal-notices.js';

/** Hourly is plenty for a three-day reminder; each expiry is still announced once (dedupe key). */
export const VIP_REMINDER_SWEEP_MS = 60 * 60_000;

/** Worker role: the VIP expiry reminder, at start-up and then every hour. */
export function installNoticeJobs(app: FastifyInstance, personal: PersonalNotices, everyMs = VIP_REMINDER_SWEEP_MS) {
  let timer: NodeJS.Timeout | undefined;
  const run = () =>
    personal
      .remindVipExpiring()
      .then((n) => n && app.log.info({ notices: n }, 'vip expiry reminders sent'))
      .catch((err: unknown) => app.log.error({ err }, 'vip expiry reminder sweep failed'));
  app.addHook('onReady', async () => {
    void run();
    timer = setInterval(() => void run(), everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
