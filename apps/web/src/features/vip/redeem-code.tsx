import { useState } from 'react';
import { Button, Input, Space } from 'antd';
import { isApiError } from '../../api/request';
import { vipApi, type CodeExchangeResult } from '../../api/vip';
import { toast } from '../notifications/toasts';
import { useRefreshVip } from './vip-sync';
import { settle } from '../../api/request';

export function exchangeText(r: CodeExchangeResult): string {
  return r.kind === 'points' ? `兑换成功，获得 ${r.value} 积分` : `兑换成功，会员时长增加 ${r.value} 天`;
}

/**
 * Coupon-code redemption. The server's message (invalid, used up, expired, already redeemed) is
 * toasted by the request layer and repeated under the input, where the user is looking.
 */
export function RedeemCode(props: { initial?: string; via?: 'coupon' | 'rights'; onDone?: (r: CodeExchangeResult) => void }) {
  const [code, setCode] = useState(props.initial ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refresh = useRefreshVip();

  const submit = async () => {
    const value = code.trim();
    if (value.length < 4) {
      setError('请输入正确的兑换码');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const r = props.via === 'rights' ? await vipApi.redeemRightsCode(value) : await vipApi.redeemCoupon(value);
      toast.message('success', exchangeText(r), 3);
      setCode('');
      await refresh();
      props.onDone?.(r);
    } catch (e) {
      setError(isApiError(e) && e.kind === 'code' ? e.message : '兑换失败，请稍后再试');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-testid="redeem-code">
      <Space.Compact style={{ width: '100%', maxWidth: 420 }}>
        <Input
          value={code}
          onChange={(e) => setCode(e.target.value)}
          onPressEnter={() => settle(submit())}
          placeholder="请输入兑换码"
          maxLength={64}
          aria-label="兑换码"
          allowClear
        />
        <Button type="primary" loading={busy} onClick={() => settle(submit())} data-testid="redeem-submit">
          兑换
        </Button>
      </Space.Compact>
      {error ? (
        <div className="redeem-error" role="alert" data-testid="redeem-error">
          {error}
        </div>
      ) : null}
    </div>
  );
}
