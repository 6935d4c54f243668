import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-accountManager" title="账号管理" description="绑定小红书等平台账号，统一管理发布。" />;
}
