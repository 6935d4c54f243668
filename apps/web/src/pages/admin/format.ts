import { adminRoleLabels, type AdminRole } from '@inkstone/shared';

export const ROLE_LABEL: Record<AdminRole, string> = adminRoleLabels;

export const ORDER_STATUS_LABEL: Record<string, { label: string; color: string }> = {
  pending: { label: '待支付', color: 'gold' },
  paid: { label: '已支付', color: 'green' },
  closed: { label: '已关闭', color: 'default' },
  expired: { label: '已过期', color: 'default' },
  refunded: { label: '已退款', color: 'red' },
  partially_refunded: { label: '部分退款', color: 'orange' },
};

export const REFUND_STATUS_LABEL: Record<string, string> = { processing: '处理中', succeeded: '已退款', failed: '失败' };

/** Pretty JSON for before/after and gateway payloads; never throws on odd values. */
export function pretty(v: unknown): string {
  if (v === null || v === undefined) return '—';
  try {
    return JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
}
