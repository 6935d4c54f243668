import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-topic" title="选题追踪" description="追踪赛道热点、节日与选题建议。" />;
}
