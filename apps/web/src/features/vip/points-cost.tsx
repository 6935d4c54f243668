import { useUserVipStore } from '../../stores/user-vip';
import { costLabel } from './points-cost-label';

/**
 * The price of a paid action, beside its button; nothing while the points dictionary is unknown. `free` is for the
 * embedded offline writer, which the server never charges.
 */
export function PointsCost(props: { feature: string | null | undefined; free?: boolean }) {
  const label = useUserVipStore((s) => (props.free ? '免费（离线写作助手）' : costLabel(s.allHwPointDic, props.feature)));
  if (!label) return null;
  return (
    <span className="points-cost muted" data-testid={`points-cost-${props.feature ?? ''}`}>
      {label}
    </span>
  );
}
