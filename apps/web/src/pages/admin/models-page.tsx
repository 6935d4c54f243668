import { Empty } from 'antd';
import type { AdminMe } from '../../api/admin';

/** Not built yet: the page says so rather than pretending (issue 18 lists it). */
export default function Page(_props: { me?: AdminMe }) {
  return <Empty data-testid="admin-coming-soon" description="模型与来源：该功能正在建设中" />;
}
