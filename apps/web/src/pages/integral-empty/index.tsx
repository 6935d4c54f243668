import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-integralEmpty" title="积分不足" description="积分余额与兑换入口将在这里展示。" />;
}
