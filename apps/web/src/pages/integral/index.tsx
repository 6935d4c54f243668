import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-integral" title="积分中心" description="购买积分包、兑换码兑换将在这里进行。" />;
}
