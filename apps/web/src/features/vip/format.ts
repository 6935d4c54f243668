import type { OrderItem } from '../../api/vip';

/** Money arrives as integer fen: ¥19.90. */
export function yuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  return `${sign}¥${(Math.abs(fen) / 100).toFixed(2)}`;
}

/** Yuan without the symbol and without a useless ".00": 19.9 → "19.9", 30 → "30". */
export function yuanPlain(fen: number): string {
  return String(Math.round(fen) / 100);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Local "YYYY-MM-DD HH:mm"; an unparsable value is shown as it came rather than as "NaN". */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Countdown text for the QR code: "04:59"; never negative. */
export function countdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${pad(Math.floor(s / 60))}:${pad(s % 60)}`;
}

export const ORDER_STATUS: Record<OrderItem['status'], { label: string; color: string }> = {
  pending: { label: '待支付', color: 'gold' },
  paid: { label: '已支付', color: 'green' },
  closed: { label: '已关闭', color: 'default' },
  expired: { label: '已过期', color: 'default' },
  refunded: { label: '已退款', color: 'default' },
  partially_refunded: { label: '部分退款', color: 'blue' },
};

export const PAY_CHANNEL_LABEL: Record<string, string> = { wechat: '微信支付', alipay: '支付宝' };

/** "+100" / "-20": the sign is part of what the user reads. */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** The plan cards' button: a member renews, everyone else subscribes. */
export function planButtonLabel(isVip: boolean): string {
  return isVip ? '续费会员' : '立即开通';
}

export type BalanceVerdict = 'unknown' | 'enough' | 'short';

/**
 * Whether the balance covers what was tried (`need`, from the lackPoints event) or, without one, every paid
 * feature (`maxCost`). Unknown while the balance (or the price to compare with) is not known: the page then
 * neither claims a shortage nor promises enough.
 */
export function balanceVerdict(balance: number | null, need: number | null | undefined, maxCost: number | null | undefined): BalanceVerdict {
  if (balance === null) return 'unknown';
  const bar = need ?? maxCost;
  if (bar === null || bar === undefined) return balance > 0 ? 'enough' : 'short';
  return balance >= bar ? 'enough' : 'short';
}
