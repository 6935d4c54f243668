import type { FastifyBaseLogger } from 'fastify';
import { BullJobQueue } from './bullmq.js';
import { InProcessJobQueue } from './in-process.js';
import type { JobQueue } from './types.js';

/** `roles`: the process's roles; registering a job another role owns then throws (jobs/roles.ts). */
export function createJobQueue(redisUrl: string | undefined, prefix: string, log: FastifyBaseLogger, roles?: ReadonlySet<string>): JobQueue {
  return redisUrl ? new BullJobQueue(redisUrl, log, prefix, roles) : new InProcessJobQueue(log, roles);
}
