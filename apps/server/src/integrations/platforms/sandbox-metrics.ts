import { createHash } from 'node:crypto';
import type { AccountDayFigures, NoteDayFigures } from './types.js';

/**
 * The 沙箱 creator site's figures: realistic and evolving, yet a pure function of a seed (creator and note ids) and the
 * date, so tests can assert exact values. A note's views rise from its publish day and flatten (1 - e^(-k/tau)
 * towards a per-note ceiling); likes, collects, comments and shares are per-note shares of its views; an account's
 * followers grow with the likes its notes gather. Days are Asia/Shanghai calendar days (`YYYY-MM-DD`).
 */

const DAY_MS = 86_400_000;
const SHANGHAI_MS = 8 * 3600_000;

export const dayOf = (ms: number) => new Date(ms + SHANGHAI_MS).toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

const hash32 = (s: string) => createHash('sha256').update(s).digest().readUInt32BE(0);

export interface MetricsNote {
  id: string;
  title: string;
  url: string | null;
  publishedAt: number;
}

type Figures = Omit<NoteDayFigures, 'day' | 'noteId' | 'title' | 'url' | 'publishedAt'>;
const ZERO: Figures = { views: 0, likes: 0, collects: 0, comments: 0, shares: 0 };

/** A note's cumulative figures at the end of `day`. */
export function noteFigures(note: MetricsNote, day: string): Figures {
  const k = daysBetween(dayOf(note.publishedAt), day) + 1;
  if (k <= 0) return ZERO;
  const h = hash32(`sandbox-note:${note.id}`);
  const peak = 300 + (h % 5000);
  const tau = 1.5 + ((h >>> 8) % 5);
  const views = Math.floor(peak * (1 - Math.exp(-k / tau)));
  return {
    views,
    likes: Math.floor((views * (4 + ((h >>> 12) % 7))) / 100),
    collects: Math.floor((views * (1 + ((h >>> 16) % 4))) / 100),
    comments: Math.floor((views * (1 + ((h >>> 20) % 2))) / 200),
    shares: Math.floor(views / 150),
  };
}

const sum = (notes: MetricsNote[], day: string): Figures =>
  notes.reduce<Figures>((acc, n) => {
    const f = noteFigures(n, day);
    return { views: acc.views + f.views, likes: acc.likes + f.likes, collects: acc.collects + f.collects, comments: acc.comments + f.comments, shares: acc.shares + f.shares };
  }, ZERO);

/** The account's day: followers = base + likes gathered / 4; the rest are the day's growth of its notes' totals. */
export function accountDay(baseFollowers: number, notes: MetricsNote[], day: string): AccountDayFigures {
  const today = sum(notes, day);
  const before = sum(notes, addDays(day, -1));
  const followers = baseFollowers + Math.floor(today.likes / 4);
  return {
    day,
    followers,
    newFollowers: followers - (baseFollowers + Math.floor(before.likes / 4)),
    views: today.views - before.views,
    likes: today.likes - before.likes,
    collects: today.collects - before.collects,
    comments: today.comments - before.comments,
    shares: today.shares - before.shares,
  };
}

/** Every day of `from`..`to` (inclusive) for the account and each note published by then. */
export function sandboxMetrics(baseFollowers: number, notes: MetricsNote[], from: string, to: string): { days: AccountDayFigures[]; notes: NoteDayFigures[] } {
  const days: AccountDayFigures[] = [];
  const rows: NoteDayFigures[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    days.push(accountDay(baseFollowers, notes, d));
    for (const n of notes) {
      if (dayOf(n.publishedAt) > d) continue;
      rows.push({ day: d, noteId: n.id, title: n.title, url: n.url, publishedAt: new Date(n.publishedAt), ...noteFigures(n, d) });
    }
  }
  return { days, notes: rows };
}
