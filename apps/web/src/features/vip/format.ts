import type { LedgerEntry, OrderItem } from '../../api/vip';

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

export function dateOnly(iso: string | null | undefined): string {
  return dateTime(iso).slice(0, 10);
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
};

export const PAY_CHANNEL_LABEL: Record<string, string> = { wechat: '微信支付', alipay: '支付宝' };

export const LEDGER_KIND_LABEL: Record<LedgerEntry['kind'], string> = {
  grant: '获得',
  charge: '消耗',
  deduct: '扣除',
  refund: '退还',
};

/** "+100" / "-20": the sign is part of what the user reads. */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** VIP expiry in words; an expiry in the past is not VIP time left. */
export function vipRemaining(expiredTime: string | null, now: number): string | null {
  if (!expiredTime) return null;
  const end = Date.parse(expiredTime);
  if (Number.isNaN(end) || end <= now) return null;
  const days = Math.ceil((end - now) / 86_400_000);
  return days <= 1 ? '不足1天' : `剩余${days}天`;
}
