import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-agent" title="智能体" description="与写作智能体对话，完成从选题到发布的全流程。" />;
}
