import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import type { Storage } from '../../integrations/storage/types.js';
import type { PersonalNotices } from '../notice/personal-notices.js';
import { feedbackRoutes } from './feedback.routes.js';
import { FeedbackService } from './feedback.service.js';

export interface FeedbackModuleDeps {
  db: Db;
  clock: Clock;
  /** Where uploaded screenshots live (an attached image must be one of ours). */
  storage: Storage;
  /** The reply reaches the user as a personal notice. */
  notices: PersonalNotices;
}

/** 帮助与反馈: users write, operators reply from the admin CLI. */
export function createFeedback(d: FeedbackModuleDeps) {
  return { feedback: new FeedbackService(d.db, d.storage, d.notices, d.clock) };
}

export type FeedbackModule = ReturnType<typeof createFeedback>;

/** Routes under /api. */
export async function registerFeedback(api: FastifyInstance, m: FeedbackModule) {
  await api.register(feedbackRoutes({ feedback: m.feedback }));
}
