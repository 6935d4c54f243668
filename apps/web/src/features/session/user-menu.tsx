import type { ReactNode } from 'react';
import { Dropdown } from 'antd';
import { Link } from 'react-router';
import { useGlobalStore } from '../../stores/global';
import { logout } from './session';

/** The account menu; loaded after first paint so the dropdown machinery stays out of the home route's initial JS. */
export default function UserMenu(props: { children: ReactNode }) {
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'nickname', label: '修改昵称' },
          { key: 'profile', label: '完善创作者资料' },
          { key: 'settings', label: <Link to="/personalSet">个人设置</Link> },
          { type: 'divider' },
          { key: 'logout', label: '退出登录', danger: true },
        ],
        onClick: ({ key }) => {
          const g = useGlobalStore.getState();
          if (key === 'nickname') g.openModal('changeNickname');
          if (key === 'profile') g.openModal('profileFill');
          if (key === 'logout') void logout();
        },
      }}
    >
      {props.children}
    </Dropdown>
  );
}
