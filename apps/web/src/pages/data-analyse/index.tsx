import { ComingSoon } from '../../components/page-frame';

/** Placeholder frame: the feature itself belongs to a later issue. */
export default function Page() {
  return <ComingSoon testId="page-dataAnalyse" title="数据分析" description="查看已发布内容的阅读、互动与粉丝变化。" />;
}
