import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Skeleton } from 'antd';
import { vipApi } from '../../api/vip';
import { toast } from '../notifications/toasts';
import { copyText, inviteLink } from './copy';
import { queryKeys } from '../../api/query-keys';
import { settle } from '../../api/request';

/** My invitation code, link and count; also announces a new invite success once. */
export function InvitePanel() {
  const popup = useQuery({ queryKey: queryKeys.vip.invitePopup, queryFn: vipApi.invitePopup, retry: false });
  const success = popup.data?.inviteSuccessInfo;
  // The server hands each invite success out once: say it when it arrives.
  useEffect(() => {
    if (!success) return;
    const text =
      success.role === 'inviter'
        ? `好友「${success.nickname}」已通过你的邀请加入，你获得 ${success.reward} 积分`
        : `你已通过「${success.nickname}」的邀请加入，获得 ${success.reward} 积分`;
    toast.message('success', text, 5);
  }, [success]);

  if (popup.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (popup.isError) {
    return <Alert type="error" showIcon title="邀请信息加载失败" action={<Button onClick={() => popup.refetch()}>重试</Button>} data-testid="invite-error" />;
  }
  const { inviteCode, rules, invitedCount } = popup.data;
  const copy = async (text: string, what: string) => {
    if (await copyText(text)) toast.message('success', `${what}已复制`, 2);
    else toast.message('warning', '复制失败，请手动复制', 2);
  };
  return (
    <div data-testid="invite-panel">
      <div className="row-gap">
        <span className="muted">我的邀请码</span>
        <span className="invite-code" data-testid="invite-code">
          {inviteCode}
        </span>
        <Button size="small" onClick={() => settle(copy(inviteCode, '邀请码'))} data-testid="invite-copy">
          复制邀请码
        </Button>
        <Button size="small" onClick={() => settle(copy(inviteLink(inviteCode), '邀请链接'))}>
          复制邀请链接
        </Button>
      </div>
      <p className="muted" style={{ margin: '12px 0 0' }}>
        已成功邀请 <strong data-testid="invite-count">{invitedCount}</strong> 位好友。好友注册时填写你的邀请码，你得 {rules.inviterReward} 积分，好友得 {rules.inviteeReward} 积分。
      </p>
    </div>
  );
}
