/**
 * The square crop of the avatar editor: `zoom` >= 1 shrinks the square from the image's short side, and `x`/`y` in
 * [-1, 1] slide it from the centre to either edge. Returns the source rectangle, always inside the image.
 */
export function cropRect(width: number, height: number, zoom: number, x: number, y: number): { sx: number; sy: number; size: number } {
  const z = Math.max(1, Number.isFinite(zoom) ? zoom : 1);
  const size = Math.max(1, Math.floor(Math.min(width, height) / z));
  const clamp = (v: number) => Math.max(-1, Math.min(1, Number.isFinite(v) ? v : 0));
  const slackX = width - size;
  const slackY = height - size;
  return { sx: Math.round((slackX / 2) * (1 + clamp(x))), sy: Math.round((slackY / 2) * (1 + clamp(y))), size };
}

/** The avatar's side in pixels: small enough to stay far under the upload cap, sharp on high-density screens. */
export const AVATAR_SIZE = 256;

/** Do-not-disturb choices: '0' is off, otherwise the epoch-millisecond time until which notifications are muted. */
export const dndChoices = [
  { value: 'off', label: '关闭' },
  { value: '1h', label: '1 小时' },
  { value: '8h', label: '8 小时' },
  { value: 'tomorrow', label: '到明早 8:00' },
] as const;
export type DndChoice = (typeof dndChoices)[number]['value'];

export function dndUntil(choice: DndChoice, now: Date): string {
  if (choice === 'off') return '0';
  if (choice === '1h') return String(now.getTime() + 3_600_000);
  if (choice === '8h') return String(now.getTime() + 8 * 3_600_000);
  const next = new Date(now);
  next.setDate(next.getDate() + 1);
  next.setHours(8, 0, 0, 0);
  return String(next.getTime());
}

/** Whether the stored do-not-disturb value still mutes at `now`. */
export const dndActive = (value: string, now: number) => /^\d+$/.test(value) && Number(value) > now;

/** The moment a do-not-disturb state is judged at (after a save). */
export const dndCheckedAt = () => Date.now();
