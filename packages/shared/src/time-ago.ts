/**
 * Time-ago formatting of spec section 9:
 * under 60 s 刚刚; under an hour N分钟前; same day HH:mm; yesterday 昨天; same year MM-DD; otherwise YYYY-MM-DD.
 * Calendar comparisons use the local time of `now`.
 */
export function formatTimeAgo(time: Date | number | string, now: Date | number = Date.now()): string {
  const t = new Date(time);
  const n = new Date(now);
  const diffMs = n.getTime() - t.getTime();
  if (diffMs < 60_000) return '刚刚';
  if (diffMs < 3_600_000) return `${Math.floor(diffMs / 60_000)}分钟前`;
  const pad = (v: number) => String(v).padStart(2, '0');
  const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
  if (sameDay(t, n)) return `${pad(t.getHours())}:${pad(t.getMinutes())}`;
  const yesterday = new Date(n.getFullYear(), n.getMonth(), n.getDate() - 1);
  if (sameDay(t, yesterday)) return '昨天';
  if (t.getFullYear() === n.getFullYear()) return `${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
}
