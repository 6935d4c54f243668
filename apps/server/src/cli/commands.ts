import type { ParseArgsConfig } from 'node:util';
import type { Container } from '../container.js';
import { userCommands } from './user.commands.js';
import { noticeCommands } from './notice.commands.js';
import { feedbackCommands } from './feedback.commands.js';
import { vipCommands } from './vip.commands.js';
import { writingCommands } from './writing.commands.js';
import { topicCommands } from './topic.commands.js';

export interface AdminCommand {
  description: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  run(c: Container, args: Record<string, string | boolean | undefined>): Promise<unknown>;
}

/** Later areas add their commands here, each from its own `<area>.commands.ts`. */
export const commands: Record<string, AdminCommand> = {
  ...userCommands,
  ...noticeCommands,
  ...feedbackCommands,
  ...vipCommands,
  ...writingCommands,
  ...topicCommands,
};

export function requireArg(args: Record<string, string | boolean | undefined>, name: string): string {
  const v = args[name];
  if (typeof v !== 'string' || v.trim() === '') throw new Error(`缺少参数 --${name}`);
  return v.trim();
}
