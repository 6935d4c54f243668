import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-pointsRule" title="积分规则" description="积分获取与消耗规则将在这里展示。" />;
}
