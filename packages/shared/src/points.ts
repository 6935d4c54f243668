/**
 * Points ledger vocabulary shared by the server (what it writes) and the web app (what the user reads):
 * ledger kinds, the built-in paid features, their Chinese labels, and the one rule for "days of VIP left".
 */

/** Every kind of ledger row. Adding one here without a label in `ledgerKindLabels` does not compile. */
export const ledgerKinds = ['charge', 'refund', 'grant', 'deduct', 'welcome'] as const;
export type LedgerKind = (typeof ledgerKinds)[number];

export const ledgerKindLabels = {
  charge: '消耗',
  refund: '退还',
  grant: '获得',
  deduct: '扣除',
  welcome: '欢迎积分',
} as const satisfies Record<LedgerKind, string>;

/**
 * The paid features the server charges for out of the box (the point_costs seed); a charge row's reason is
 * the feature key and a refund's is `refund:<feature>`. Operators may add features later: those fall back to
 * the points dictionary's name.
 */
export const pointsFeatures = ['article_deep', 'article_quick', 'graphic', 'ability', 'title', 'ai_image', 'agent'] as const;
export type PointsFeature = (typeof pointsFeatures)[number];

export const pointsFeatureLabels = {
  article_deep: '深度写作',
  article_quick: '快速写作',
  graphic: '图文生成',
  ability: '写作能力（润色/扩写等）',
  title: '标题生成',
  ai_image: 'AI配图',
  agent: '智能体对话',
} as const satisfies Record<PointsFeature, string>;

const isFeature = (s: string): s is PointsFeature => (pointsFeatures as readonly string[]).includes(s);
const hasCjk = (s: string) => /[\u3400-\u9fff]/.test(s);

/**
 * What a ledger row says to the user. Reasons written in Chinese (rewards, purchases, codes) are shown as they
 * are; machine keys (`article_deep`, `refund:title`) become their labels; anything else falls back to the kind.
 */
export function ledgerEntryLabel(entry: { kind: LedgerKind; reason: string }, dictionary: Record<string, string> = {}): string {
  const featureName = (key: string): string | null => (isFeature(key) ? pointsFeatureLabels[key] : (dictionary[key] ?? null));
  const reason = entry.reason.trim();
  if (!reason) return ledgerKindLabels[entry.kind];
  if (hasCjk(reason)) return reason;
  const refunded = /^refund:(.+)$/.exec(reason)?.[1];
  if (refunded) {
    const name = featureName(refunded);
    return name ? `${name}失败退还` : ledgerKindLabels.refund;
  }
  const name = featureName(reason);
  if (name) return name;
  return ledgerKindLabels[entry.kind];
}

const DAY_MS = 86_400_000;
/** China Standard Time: UTC+8 all year (no daylight saving), so a fixed offset is exact. */
const CHINA_OFFSET_MS = 8 * 3_600_000;

/** The Asia/Shanghai calendar day of an instant, `yyyy-mm-dd`: the day rewards and VIP dates are counted in. */
export function chinaDay(at: Date | number | string): string {
  return new Date(new Date(at).getTime() + CHINA_OFFSET_MS).toISOString().slice(0, 10);
}

const dayIndex = (at: number) => Math.floor((at + CHINA_OFFSET_MS) / DAY_MS);

/**
 * Days of VIP left: calendar days in Asia/Shanghai from today to the expiry date ("有效期至" shows that date),
 * so the figure does not depend on the hour a page was opened. 0 = expires today; null = no expiry or already
 * expired (or unparsable).
 */
export function vipDaysLeft(expiredTime: string | null | undefined, now: Date | number = Date.now()): number | null {
  if (!expiredTime) return null;
  const end = Date.parse(expiredTime);
  const at = new Date(now).getTime();
  if (Number.isNaN(end) || end <= at) return null;
  return dayIndex(end) - dayIndex(at);
}

/** `剩余30天` / `今天到期`; null when there is nothing left to show. */
export function vipRemainingText(expiredTime: string | null | undefined, now: Date | number = Date.now()): string | null {
  const days = vipDaysLeft(expiredTime, now);
  if (days === null) return null;
  return days === 0 ? '今天到期' : `剩余${days}天`;
}
