import { Avatar, Tag, Tooltip } from 'antd';
import type { BoundAccount } from '../../api/publish';

export function AccountBadge({ account, size = 40 }: { account: BoundAccount; size?: number }) {
  return (
    <span className="account-option">
      <Avatar src={account.avatar ?? undefined} size={size} alt="">
        {account.accountName.slice(0, 1)}
      </Avatar>
      <strong>{account.accountName}</strong>
      <Tag>{account.platformName || account.platform}</Tag>
      {account.sandbox ? <Tag color="orange">沙箱</Tag> : null}
      {account.top ? <Tag color="gold">置顶</Tag> : null}
    </span>
  );
}

export function AccountStatus({ account }: { account: BoundAccount }) {
  if (account.status === 'active') return <Tag color="green">正常</Tag>;
  return (
    <Tooltip title={account.statusReason ?? '登录信息已失效，请重新绑定'}>
      <Tag color="red" data-testid="account-expired">
        状态失效
      </Tag>
    </Tooltip>
  );
}
