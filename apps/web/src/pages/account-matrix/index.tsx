import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-accountMatrix" title="账号矩阵" description="多账号矩阵运营与批量发布。" />;
}
