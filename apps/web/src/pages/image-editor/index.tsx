import { useParams } from 'react-router';
import { ComingSoon } from '../../components/page-frame';

export default function Page() {
  const { taskId } = useParams();
  return <ComingSoon testId="page-imageEditor" title="图片编辑" description={`任务 ${taskId ?? ''}：裁剪、加字与 AI 图片处理。`} />;
}
