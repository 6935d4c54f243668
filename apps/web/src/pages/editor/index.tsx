import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-editor" title="文章编辑器" description="富文本编辑、排版与一键发布。" />;
}
