import type { NextSlot } from '@inkstone/shared';

const p2 = (n: number) => String(n).padStart(2, '0');

/** "2 小时", "30 分钟", "1 小时 30 分钟". */
export function intervalText(ms: number): string {
  const h = Math.floor(ms / 3600_000);
  const m = Math.floor((ms % 3600_000) / 60_000);
  return [h ? `${h} 小时` : '', m ? `${m} 分钟` : ''].filter(Boolean).join(' ') || `${Math.ceil(ms / 1000)} 秒`;
}

/**
 * "现在", "今天 21:40", "明天 00:10", "11月30日 09:00" in the browser's time; rounded up to the minute, so a time
 * picked as shown is never before the slot.
 */
export function slotTimeText(iso: string, now: number): string {
  const t = Math.ceil(Date.parse(iso) / 60_000) * 60_000;
  if (t <= now + 60_000) return '现在';
  const d = new Date(t);
  const today = new Date(now);
  const days = Math.round(
    (new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime() - new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime()) / 86_400_000,
  );
  const hm = `${p2(d.getHours())}:${p2(d.getMinutes())}`;
  return days === 0 ? `今天 ${hm}` : days === 1 ? `明天 ${hm}` : `${d.getMonth() + 1}月${d.getDate()}日 ${hm}`;
}

/** The platform's advice, e.g. "小红书建议两次发布间隔 2 小时、每天不超过 5 篇". */
export function pacingRuleText(platformName: string, slot: Pick<NextSlot, 'minIntervalMs' | 'dailyCap'>): string {
  const parts = [slot.minIntervalMs ? `两次发布间隔 ${intervalText(slot.minIntervalMs)}` : '', slot.dailyCap ? `每天不超过 ${slot.dailyCap} 篇` : ''].filter(Boolean);
  return `${platformName}建议${parts.join('、')}`;
}

/** One line per paced account: when it may publish next and why. `who` names the account ("该账号" when alone). */
export function pacingHint(who: string, platformName: string, slot: NextSlot, now: number): string {
  return `${who}下一次可发布时间：${slotTimeText(slot.nextSlot, now)}（${pacingRuleText(platformName, slot)}）`;
}

/** A chosen schedule time before the account's next free slot: the server would refuse it. */
export function scheduleConflict(who: string, slot: NextSlot, scheduleAt: Date | null, now: number): string | null {
  if (!scheduleAt || slot.dailyCap === null || scheduleAt.getTime() >= Date.parse(slot.nextSlot)) return null;
  return `所选时间早于${who}的下一次可发布时间（${slotTimeText(slot.nextSlot, now)}），请选择这个时间之后`;
}
