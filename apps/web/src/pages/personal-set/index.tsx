import { Tabs } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { PageFrame } from '../../components/page-frame';
import { useIsLogin, useGlobalStore } from '../../stores/global';
import { ProfileTab } from './profile-tab';
import { NoticeTab } from './notice-tab';
import { SecurityTab } from './security-tab';
import { AccountTab } from './account-tab';
import { PointsTab } from './points-tab';
import './personal-set.css';

/** /personalSet/{type}: the tab is the path's type (profile by default; the old 'account' link meant the profile). */
const tabs = [
  { key: 'profile', label: '个人资料', children: <ProfileTab /> },
  { key: 'notice', label: '通知设置', children: <NoticeTab /> },
  { key: 'security', label: '账号安全', children: <SecurityTab /> },
  { key: 'account', label: '注销账号', children: <AccountTab /> },
  { key: 'points', label: '积分与会员', children: <PointsTab /> },
];

export default function Page() {
  const { type } = useParams();
  const navigate = useNavigate();
  const isLogin = useIsLogin();
  const active = tabs.some((t) => t.key === type) ? type! : 'profile';
  if (isLogin !== true) {
    return (
      <PageFrame testId="page-personalSet" title="个人设置">
        <div className="settings-login" data-testid="settings-login">
          <p>登录后可以管理个人资料、通知与账号安全。</p>
          <button type="button" className="ant-btn ant-btn-primary" onClick={() => useGlobalStore.getState().openModal('login')} disabled={isLogin === 'UNKNOWN'}>
            登录
          </button>
        </div>
      </PageFrame>
    );
  }
  return (
    <PageFrame testId="page-personalSet" title="个人设置">
      <Tabs className="settings-tabs" activeKey={active} onChange={(k) => navigate(`/personalSet/${k}`)} items={tabs} destroyOnHidden />
    </PageFrame>
  );
}
