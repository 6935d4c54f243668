import { Link, useLocation } from 'react-router';
import { Empty } from 'antd';
import { PageFrame } from '../../components/page-frame';

export default function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <PageFrame testId="page-notFound" title="页面不存在">
      <Empty description={`没有找到 ${pathname} 对应的页面`}>
        <Link to="/">返回首页</Link>
      </Empty>
    </PageFrame>
  );
}
