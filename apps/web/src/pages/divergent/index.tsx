import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-divergent" title="发散思维" description="围绕一个主题发散出多个写作角度。" />;
}
