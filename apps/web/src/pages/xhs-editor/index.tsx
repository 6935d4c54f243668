import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-xhsEditor" title="小红书编辑器" description="图文卡片编辑与小红书发布。" />;
}
