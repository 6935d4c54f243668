import type { FastifyInstance } from 'fastify';
import type { JobQueue } from '../../jobs/types.js';
import type { PersonalNotices } from './personal-notices.js';

export const VIP_REMINDER_JOB = 'notice.vip-expiring';
/** Hourly is plenty for a three-day reminder; each expiry is still announced once (dedupe key). */
export const VIP_REMINDER_SWEEP_MS = 60 * 60_000;

/** Worker role: the VIP expiry reminder, at start-up and then every hour (a scheduled job on the queue). */
export function installNoticeJobs(app: FastifyInstance, jobs: JobQueue, personal: PersonalNotices, everyMs = VIP_REMINDER_SWEEP_MS) {
  const run = async () => {
    const n = await personal.remindVipExpiring();
    if (n) app.log.info({ notices: n }, 'vip expiry reminders sent');
  };
  jobs.schedule(VIP_REMINDER_JOB, everyMs, run);
  app.addHook('onReady', async () => {
    await jobs.enqueue(VIP_REMINDER_JOB, {}, { jobId: 'startup' });
  });
}
