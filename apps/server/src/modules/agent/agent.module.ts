import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import type { JobQueue } from '../../jobs/types.js';
import { AgentRepo } from './agent.repo.js';
import { agentRoutes } from './agent.routes.js';
import { AgentService, type AgentDeps } from './agent.service.js';
import type { AgentPorts } from './agent.tools.js';

export interface AgentModuleDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  jobs: JobQueue;
  points: AgentDeps['points'];
  llms: AgentDeps['llms'];
  lexicon: AgentDeps['lexicon'];
  /** The services the pages use: topics, knowledge, writing tasks, drafts, accounts, publishing. */
  ports: AgentPorts;
}

/** 智能体: conversations, the model/tool loop (worker role) and confirmations. */
export function createAgent(config: Config, d: AgentModuleDeps) {
  const repo = new AgentRepo(d.db);
  const agent = new AgentService({ ...d, repo, confirmPoints: config.AGENT_CONFIRM_POINTS });
  if (config.roles.has('worker')) agent.register();
  return { repo, agent };
}

export type AgentModule = ReturnType<typeof createAgent>;

/** Routes under /api. */
export async function registerAgent(api: FastifyInstance, m: AgentModule, config: Config) {
  await api.register(agentRoutes({ agent: m.agent, repo: m.repo, pollMs: config.WRITING_STREAM_POLL_MS }));
}
