import type { CalendarDay, TopicCalendar } from '@inkstone/shared';
import { festivalsOf } from '../writing/festival.js';
import { MARKETING_DAYS, type MarketingRule } from './marketing-days.js';

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d));
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);

type Festivals = (year: number) => ReturnType<typeof festivalsOf>;

/** The days a rule gives in one year ([first, last]), or null (a weekday rule with no 5th such day that month). */
function resolve(rule: MarketingRule, year: number, festivals: Festivals): [string, string] | null {
  switch (rule.kind) {
    case 'date': {
      const from = `${year}-${rule.md}`;
      return [from, rule.until ? `${year}-${rule.until}` : from];
    }
    case 'weekday': {
      const first = utc(year, rule.month, 1);
      const day = 1 + ((rule.weekday - first.getUTCDay() + 7) % 7) + (rule.nth - 1) * 7;
      if (day > utc(year, rule.month + 1, 0).getUTCDate()) return null;
      const d = addDays(utc(year, rule.month, day), rule.offsetDays ?? 0);
      return [iso(d), iso(d)];
    }
    case 'festival': {
      const f = festivals(year).find((x) => x.type === 'traditional' && x.name === rule.festival);
      if (!f) return null;
      const base = new Date(`${f.date}T00:00:00Z`);
      return [iso(addDays(base, rule.fromDays)), iso(addDays(base, rule.toDays))];
    }
  }
}

/**
 * One month of the /topic calendar: traditional festivals, solar terms and public holidays from chinese-days, and the
 * marketing days of the data table, each with what to write. A span (holiday, 年货节) is listed in every month it
 * touches, so the years either side are looked at too (元旦 days off begin in December; 年货节 before an early 春节
 * begins in December). Sorted by date.
 */
export function calendarOf(month: string): TopicCalendar {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const first = `${y}-${pad(m)}-01`;
  const last = iso(utc(y, m + 1, 0));
  const touches = (from: string, to: string) => from <= last && to >= first;
  const cache = new Map<number, ReturnType<typeof festivalsOf>>();
  const festivals: Festivals = (year) => {
    if (!cache.has(year)) cache.set(year, festivalsOf(year));
    return cache.get(year)!;
  };
  const days: CalendarDay[] = [];
  for (const year of [y - 1, y, y + 1]) {
    if (year === y || (year === y - 1 && m === 1)) {
      for (const f of festivals(year)) {
        if (touches(f.date, f.endDate ?? f.date))
          days.push({ date: f.date, endDate: f.endDate === f.date ? null : f.endDate, name: f.name, type: f.type, suggestion: f.suggestion, topics: [] });
      }
    }
    for (const md of MARKETING_DAYS) {
      if (md.rule.kind !== 'festival' && year !== y) continue;
      const r = resolve(md.rule, year, festivals);
      if (!r || !touches(r[0], r[1])) continue;
      days.push({ date: r[0], endDate: r[1] === r[0] ? null : r[1], name: md.name, type: 'marketing', suggestion: md.suggestion, topics: md.topics });
    }
  }
  return { month, days: days.sort((a, b) => a.date.localeCompare(b.date) || a.name.localeCompare(b.name)) };
}
