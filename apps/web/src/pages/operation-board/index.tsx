import { useParams } from 'react-router';
import { ComingSoon } from '../../components/page-frame';

export default function Page() {
  const { accountId } = useParams();
  return (
    <ComingSoon
      testId="page-operationBoard"
      title="运营看板"
      description={accountId ? `账号 ${accountId} 的评论、点赞与关注动态。` : '查看各账号的评论、点赞与关注动态。'}
    />
  );
}
