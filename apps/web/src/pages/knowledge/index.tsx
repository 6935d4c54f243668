import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-knowledge" title="知识库" description="上传资料、整理文档库，写作时一键引用。" />;
}
