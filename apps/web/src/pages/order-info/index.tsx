import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-orderInfo" title="订单信息" description="会员与积分订单记录将在这里展示。" />;
}
