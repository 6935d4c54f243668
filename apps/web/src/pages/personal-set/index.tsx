import { useParams } from 'react-router';
import { ComingSoon } from '../../components/page-frame';

const sections: Record<string, string> = { account: '账号资料', notice: '通知设置', security: '账号安全' };

export default function Page() {
  const { type } = useParams();
  const section = (type && sections[type]) || '账号资料、通知与安全设置';
  return <ComingSoon testId="page-personalSet" title="个人设置" description={`${section}。`} />;
}
