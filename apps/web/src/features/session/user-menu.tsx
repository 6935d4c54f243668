import { useEffect, type ReactNode } from 'react';
import { Dropdown } from 'antd';
import { Link } from 'react-router';
import { useGlobalStore, type ModalName } from '../../stores/global';
import { useRelease } from '../modals/release';
import { logout } from './session';
import { settle } from '../../api/request';

const helpModals: { key: ModalName; label: string }[] = [
  { key: 'newbieGuide', label: '新手引导' },
  { key: 'guide', label: '功能指引' },
  { key: 'releaseNote', label: '更新说明' },
  { key: 'information', label: '账号信息' },
  { key: 'activity', label: '活动' },
  { key: 'platform', label: '选择创作平台' },
];

/** The account menu; loaded after first paint so the dropdown machinery stays out of the home route's initial JS. */
export default function UserMenu(props: { children: ReactNode }) {
  const release = useRelease();
  // The help modals' code is fetched while the menu is idle, so choosing one opens it at once.
  useEffect(() => {
    void import('../modals/info-modals').catch(() => {});
  }, []);
  const help = [...helpModals, ...(release.data?.downloadUrl ? [{ key: 'download' as ModalName, label: '下载客户端' }] : [])];
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'nickname', label: '修改昵称' },
          { key: 'profile', label: '完善创作者资料' },
          { key: 'settings', label: <Link to="/personalSet/profile">个人设置</Link> },
          { type: 'divider' },
          ...help.map((h) => ({ key: `modal:${h.key}`, label: h.label })),
          { type: 'divider' },
          { key: 'logout', label: '退出登录', danger: true },
        ],
        onClick: ({ key }) => {
          const g = useGlobalStore.getState();
          if (key === 'nickname') g.openModal('changeNickname');
          if (key === 'profile') g.openModal('profileFill');
          if (key.startsWith('modal:')) g.openModal(key.slice('modal:'.length) as ModalName);
          if (key === 'logout') settle(logout());
        },
      }}
    >
      {props.children}
    </Dropdown>
  );
}
