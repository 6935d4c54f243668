import type { ParseArgsConfig } from 'node:util';
import type { Container } from '../container.js';

/**
 * One admin CLI command. Its own file, so that each `<area>.commands.ts` imports this and `commands.ts` imports
 * them, with no cycle between the registry and the areas.
 */
export interface AdminCommand {
  description: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Names given to leading positional arguments, in order (`platform:canary xiaohongshu` sets `platform`). */
  positionals?: string[];
  run(c: Container, args: Record<string, string | boolean | undefined>): Promise<unknown>;
}

export function requireArg(args: Record<string, string | boolean | undefined>, name: string): string {
  const v = args[name];
  if (typeof v !== 'string' || v.trim() === '') throw new Error(`缺少参数 --${name}`);
  return v.trim();
}
