import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-pdfDetail" title="PDF 详情" description="查看与引用 PDF 文档内容。" />;
}
