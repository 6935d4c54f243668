import type { AdminCommand } from './command.js';
import { userCommands } from './user.commands.js';
import { noticeCommands } from './notice.commands.js';
import { feedbackCommands } from './feedback.commands.js';
import { vipCommands } from './vip.commands.js';
import { writingCommands } from './writing.commands.js';
import { topicCommands } from './topic.commands.js';
import { adminCommands } from './admin.commands.js';
import { platformCommands } from './platform.commands.js';

export type { AdminCommand } from './command.js';

/** Later areas add their commands here, each from its own `<area>.commands.ts`. */
export const commands: Record<string, AdminCommand> = {
  ...userCommands,
  ...noticeCommands,
  ...feedbackCommands,
  ...vipCommands,
  ...writingCommands,
  ...topicCommands,
  ...adminCommands,
  ...platformCommands,
};
