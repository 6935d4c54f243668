import type { FastifyBaseLogger } from 'fastify';
import { InProcessJobQueue } from './in-process.js';
import type { JobQueue } from './types.js';

/**
 * `roles`: the process's roles; registering a job another role owns then throws (jobs/roles.ts). BullMQ and ioredis
 * are loaded only when Redis is configured: an embedded install never needs them (~17 MB resident).
 */
export async function createJobQueue(redisUrl: string | undefined, prefix: string, log: FastifyBaseLogger, roles?: ReadonlySet<string>): Promise<JobQueue> {
  if (!redisUrl) return new InProcessJobQueue(log, roles);
  const { BullJobQueue } = await import('./bullmq.js');
  return new BullJobQueue(redisUrl, log, prefix, roles);
}
