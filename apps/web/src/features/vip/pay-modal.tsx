import { useEffect, useState } from 'react';
import { Alert, Button, Modal, Segmented, Spin, Tag } from 'antd';
import { Link } from 'react-router';
import { ErrorCode } from '@inkstone/shared';
import { isApiError } from '../../api/request';
import { vipApi, type PayChannel, type PayQr, type PurchaseKind } from '../../api/vip';
import { countdown, PAY_CHANNEL_LABEL, yuan } from './format';
import { usePoll } from '../polling/use-poll';

export interface PayTarget {
  kind: PurchaseKind;
  id: string;
  name: string;
  price: number;
}

const POLL_MS = 2000;

type Phase = { name: 'creating' } | { name: 'ready'; qr: PayQr } | { name: 'expired'; qr: PayQr | null } | { name: 'error'; text: string };

/**
 * The QR payment dialog: creates the order (30 s, cancellable), polls its status every 2 s and
 * reports `paid` once. Unmounting aborts the pending creation and stops polling, so closing the
 * dialog never leaves a request or a timer behind.
 */
export function PayModal(props: { target: PayTarget; onClose: () => void; onPaid: (target: PayTarget, qr: PayQr) => void }) {
  const { target } = props;
  // undefined: let the server choose its default channel; the QR tells us which one it was.
  const [channel, setChannel] = useState<PayChannel | undefined>(undefined);
  const [attempt, setAttempt] = useState(0);
  const [phase, setPhase] = useState<Phase>({ name: 'creating' });
  const [unavailable, setUnavailable] = useState<PayChannel[]>([]);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const ctrl = new AbortController();
    vipApi.createQr(target.kind, target.id, channel, ctrl.signal).then(
      (qr) => {
        setNow(Date.now());
        setPhase({ name: 'ready', qr });
      },
      (e: unknown) => {
        if (ctrl.signal.aborted || (isApiError(e) && e.kind === 'cancel')) return;
        if (isApiError(e) && e.code === ErrorCode.PAY_CHANNEL_UNAVAILABLE && channel) {
          setUnavailable((u) => (u.includes(channel) ? u : [...u, channel]));
          setPhase({ name: 'error', text: `${PAY_CHANNEL_LABEL[channel] ?? channel}暂未开通，请选择其他支付方式` });
          return;
        }
        setPhase({ name: 'error', text: isApiError(e) && e.message ? e.message : '二维码生成失败，请稍后再试' });
      },
    );
    return () => ctrl.abort();
  }, [target.kind, target.id, channel, attempt]);

  const qr = phase.name === 'ready' ? phase.qr : null;
  const expireAt = qr ? Date.parse(qr.expireAt) : NaN;
  const timedOut = qr !== null && !Number.isNaN(expireAt) && now >= expireAt;

  // A failed poll (network blip) is retried by the next tick; a closed modal or a new QR aborts the one in flight.
  usePoll(
    async (signal) => {
      if (!qr) return false;
      const s = await vipApi.orderStatus(target.kind, qr.orderNo, signal);
      if (signal.aborted) return false;
      if (s.status === 'paid') {
        props.onPaid(target, qr);
        return false;
      }
      if (s.status === 'expired' || s.status === 'closed') {
        setPhase({ name: 'expired', qr });
        return false;
      }
    },
    POLL_MS,
    { enabled: !!qr && !timedOut, restartOn: qr },
  );

  useEffect(() => {
    if (!qr) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [qr]);

  const shown = phase.name === 'ready' ? phase.qr : phase.name === 'expired' ? phase.qr : null;
  const expired = phase.name === 'expired' || timedOut;
  const current: PayChannel = shown?.payChannel ?? channel ?? 'wechat';
  const refresh = () => {
    setPhase({ name: 'creating' });
    setAttempt((a) => a + 1);
  };
  const pickChannel = (c: PayChannel) => {
    if (c === current && phase.name !== 'error') return;
    setPhase({ name: 'creating' });
    setChannel(c);
    setAttempt((a) => a + 1);
  };

  return (
    <Modal open onCancel={props.onClose} footer={null} width={400} title={`购买 ${target.name}`} destroyOnHidden maskClosable={false}>
      <div className="pay-modal" data-testid="pay-modal">
        <Segmented<PayChannel>
          block
          value={current}
          onChange={pickChannel}
          options={(['wechat', 'alipay'] as const).map((c) => ({ value: c, label: PAY_CHANNEL_LABEL[c], disabled: unavailable.includes(c) }))}
          data-testid="pay-channel"
        />
        <div className="pay-amount">
          应付金额 <strong data-testid="pay-amount">{yuan(shown?.amount ?? target.price)}</strong>
          {shown?.sandbox ? (
            <Tag color="orange" className="pay-sandbox-tag" data-testid="pay-sandbox">
              沙箱
            </Tag>
          ) : null}
        </div>
        <div className="pay-qr">
          {phase.name === 'creating' ? (
            <Spin tip="正在生成二维码…" data-testid="pay-creating">
              <div className="pay-qr-placeholder" />
            </Spin>
          ) : null}
          {phase.name === 'error' ? (
            <Alert
              type="error"
              showIcon
              title={phase.text}
              data-testid="pay-error"
              action={
                <Button size="small" onClick={refresh}>
                  重试
                </Button>
              }
            />
          ) : null}
          {shown ? (
            <>
              <img src={shown.qrImage} alt="支付二维码" width={200} height={200} data-testid="pay-qr" />
              {expired ? (
                <div className="pay-qr-mask" data-testid="pay-expired">
                  <span>二维码已过期</span>
                  <Button type="primary" size="small" onClick={refresh}>
                    刷新
                  </Button>
                </div>
              ) : null}
            </>
          ) : null}
        </div>
        {shown && !expired ? (
          <p className="pay-hint">
            请使用{PAY_CHANNEL_LABEL[shown.payChannel] === '支付宝' ? '支付宝' : '微信'}扫码支付，
            <span data-testid="pay-countdown">{countdown(expireAt - now)}</span> 后二维码失效
          </p>
        ) : null}
        {shown?.sandbox && !expired ? (
          <p className="pay-hint">
            <a href={shown.codeUrl} target="_blank" rel="noopener noreferrer" data-testid="pay-open-checkout">
              在浏览器中打开支付页
            </a>
            <span className="muted">（沙箱环境，不会真实扣款）</span>
          </p>
        ) : null}
        <p className="pay-foot muted">
          支付即表示同意
          <Link to="/purchaseAgreement" target="_blank">
            《会员服务协议》
          </Link>
          ，虚拟商品一经开通不支持退款。
        </p>
      </div>
    </Modal>
  );
}
