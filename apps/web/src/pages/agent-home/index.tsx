import { Link } from 'react-router';
import { Empty } from 'antd';
import { PageFrame } from '../../components/page-frame';

export default function AgentHomePage() {
  return (
    <PageFrame testId="page-agentHome" title="智能体工作台">
      <div className="coming-soon" data-testid="coming-soon">
        <Empty
          description={
            <>
              <strong>该功能正在建设中</strong>
              <div className="muted">智能体将帮你完成选题、写作、发布与运营；先去运营看板看看账号动态吧。</div>
            </>
          }
        >
          <Link to="/operationBoard">打开运营看板</Link>
        </Empty>
      </div>
    </PageFrame>
  );
}
