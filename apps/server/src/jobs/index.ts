import type { FastifyBaseLogger } from 'fastify';
import { BullJobQueue } from './bullmq.js';
import { InProcessJobQueue } from './in-process.js';
import type { JobQueue } from './types.js';

export function createJobQueue(redisUrl: string | undefined, prefix: string, log: FastifyBaseLogger): JobQueue {
  return redisUrl ? new BullJobQueue(redisUrl, log, prefix) : new InProcessJobQueue(log);
}
