import { useParams } from 'react-router';
import { ComingSoon } from '../../components/page-frame';

export default function Page() {
  const { personaId } = useParams();
  return (
    <ComingSoon testId="page-persona" title="人设详情" description={`人设编号 ${personaId ?? ''}：管理账号人设，让 AI 写出符合账号风格的内容。`} />
  );
}
