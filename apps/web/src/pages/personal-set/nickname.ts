import { limits, nicknamePattern, nicknamePatternMessage } from '@inkstone/shared';

/** The change-nickname rule the server applies (nicknameSchema), checked before sending: the problem, or null. */
export function nicknameProblem(raw: string): string | null {
  const v = raw.trim();
  // Counted in UTF-16 units, as zod's min/max count them.
  if (v.length < 2) return '昵称至少2个字符';
  if (v.length > limits.nicknameMaxLength) return `昵称最多${limits.nicknameMaxLength}个字符`;
  if (!nicknamePattern.test(v)) return nicknamePatternMessage;
  return null;
}
