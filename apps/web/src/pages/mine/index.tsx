import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-mine" title="我的" description="会员、积分与订单信息将在这里展示。" />;
}
