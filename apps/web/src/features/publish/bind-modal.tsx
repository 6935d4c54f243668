import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Form, Input, Modal, Radio, Space, Spin, Tag } from 'antd';
import { isApiError } from '../../api/request';
import { publishApi, type ConnectionState, type PublishPlatform } from '../../api/publish';
import { toast } from '../notifications/toasts';
import { PLATFORM_OPTIONS, connectionStateText, isTerminalConnection } from './format';
import './publish.css';

const POLL_MS = 2000;

type Phase =
  | { kind: 'pick' }
  | { kind: 'connecting' }
  | { kind: 'qr'; connectionId: string; qrImage: string | null; scanUrl: string | null; state: ConnectionState }
  | { kind: 'finishing'; connectionId: string }
  | { kind: 'done'; accountName: string }
  | { kind: 'error'; text: string; connectionId: string | null };

export interface BindModalProps {
  open: boolean;
  /** Re-binding an expired account starts on its platform. */
  platform?: PublishPlatform;
  onClose(): void;
  onBound(): void;
}

const errorText = (e: unknown, fallback: string) => (isApiError(e) && e.message ? e.message : fallback);

export function BindModal(props: BindModalProps) {
  const [platform, setPlatform] = useState<PublishPlatform>(props.platform ?? 'sandbox');
  const [phase, setPhase] = useState<Phase>({ kind: 'pick' });
  const [form] = Form.useForm<{ appId: string; appSecret: string }>();
  // One completion per connection, even if a slow poll reply lands after the next one.
  const finishing = useRef<string | null>(null);
  const liveConnection = useRef<string | null>(null);
  const { onBound } = props;

  useEffect(() => {
    if (props.open) {
      setPlatform(props.platform ?? 'sandbox');
      setPhase({ kind: 'pick' });
      finishing.current = null;
    }
  }, [props.open, props.platform]);

  const releaseLive = useCallback(() => {
    const id = liveConnection.current;
    liveConnection.current = null;
    // Frees the server's login browser page; nothing to tell the user either way.
    if (id) void publishApi.release({ connectionId: id }).catch(() => {});
  }, []);

  useEffect(() => releaseLive, [releaseLive]);

  const finish = useCallback(
    async (connectionId: string) => {
      if (finishing.current === connectionId) return;
      finishing.current = connectionId;
      setPhase({ kind: 'finishing', connectionId });
      try {
        await publishApi.complete(connectionId);
      } catch (e) {
        setPhase({ kind: 'error', text: errorText(e, '读取登录信息失败，请重新扫码'), connectionId });
        return;
      }
      try {
        const account = await publishApi.bind(connectionId);
        liveConnection.current = null;
        setPhase({ kind: 'done', accountName: account.accountName });
        toast.message('success', `已绑定账号「${account.accountName}」`, 3);
        onBound();
      } catch (e) {
        // Spec 8: the bind call itself shows nothing; the dialog says what happened.
        setPhase({ kind: 'error', text: `绑定失败：${errorText(e, '请重新扫码')}`, connectionId });
      }
    },
    [onBound],
  );

  const connectionId = phase.kind === 'qr' ? phase.connectionId : null;
  const qrState = phase.kind === 'qr' ? phase.state : null;
  useEffect(() => {
    if (!connectionId || !qrState || isTerminalConnection(qrState)) return;
    let stopped = false;
    let timer: number | undefined;
    const tick = async () => {
      try {
        const c = await publishApi.connection(connectionId);
        if (stopped) return;
        if (c.state === 'confirmed' || c.state === 'completed') {
          void finish(connectionId);
          return;
        }
        if (c.state === 'bound') {
          setPhase({ kind: 'done', accountName: c.accountName ?? '' });
          onBound();
          return;
        }
        setPhase((p) => (p.kind === 'qr' && p.connectionId === connectionId ? { ...p, state: c.state } : p));
        if (c.state === 'failed') {
          setPhase({ kind: 'error', text: c.error ?? '登录失败，请重试', connectionId });
          return;
        }
        if (c.state === 'expired') return;
      } catch {
        // A missed poll is retried on the next tick.
      }
      if (!stopped) timer = window.setTimeout(() => void tick(), POLL_MS);
    };
    timer = window.setTimeout(() => void tick(), POLL_MS);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [connectionId, qrState, finish, onBound]);

  const start = async () => {
    let creds: { appId?: string; appSecret?: string } = {};
    if (platform === 'wechat_mp') {
      try {
        creds = await form.validateFields();
      } catch {
        return;
      }
    }
    releaseLive();
    setPhase({ kind: 'connecting' });
    try {
      const c = await publishApi.connect({ platform, ...creds });
      liveConnection.current = c.connectionId;
      // No QR (公众号): the credentials were the login; finish straight away.
      if (c.state === 'confirmed' || !c.qrImage) {
        void finish(c.connectionId);
        return;
      }
      let scanUrl: string | null = null;
      if (platform === 'sandbox') scanUrl = await publishApi.scan(c.connectionId).then((s) => s.scanUrl, () => null);
      setPhase({ kind: 'qr', connectionId: c.connectionId, qrImage: c.qrImage, scanUrl, state: c.state });
    } catch (e) {
      setPhase({ kind: 'error', text: errorText(e, '获取登录二维码失败'), connectionId: null });
    }
  };

  const close = () => {
    if (phase.kind !== 'done') releaseLive();
    props.onClose();
  };

  const busy = phase.kind === 'connecting' || phase.kind === 'finishing';

  return (
    <Modal
      open={props.open}
      title="绑定平台账号"
      onCancel={close}
      footer={null}
      destroyOnHidden
      maskClosable={!busy}
      width={480}
    >
      <div className="bind-modal" data-testid="bind-modal">
        <Radio.Group
          value={platform}
          onChange={(e) => {
            setPlatform(e.target.value as PublishPlatform);
            releaseLive();
            setPhase({ kind: 'pick' });
          }}
          optionType="button"
          buttonStyle="solid"
          disabled={busy}
          options={PLATFORM_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
          aria-label="选择平台"
          data-testid="bind-platform"
        />

        {platform === 'wechat_mp' && (phase.kind === 'pick' || phase.kind === 'error') ? (
          <Form form={form} layout="vertical" className="bind-wechat" requiredMark={false}>
            <Form.Item name="appId" label="AppID" rules={[{ required: true, whitespace: true, message: '请输入公众号 AppID' }]}>
              <Input autoComplete="off" maxLength={64} placeholder="公众号开发者 ID (AppID)" />
            </Form.Item>
            <Form.Item name="appSecret" label="AppSecret" rules={[{ required: true, whitespace: true, message: '请输入公众号 AppSecret' }]}>
              <Input.Password autoComplete="off" maxLength={128} placeholder="公众号开发者密码 (AppSecret)" />
            </Form.Item>
            <p className="muted small">凭据在服务端加密保存，仅用于发布到该公众号。</p>
          </Form>
        ) : null}

        {phase.kind === 'pick' ? (
          <div className="bind-actions">
            {platform === 'sandbox' ? (
              <p className="muted small">
                <Tag color="orange">沙箱</Tag>模拟的创作平台，用于体验和测试，不会发布到任何真实平台。
              </p>
            ) : null}
            <Button type="primary" onClick={() => void start()} data-testid="bind-start">
              {platform === 'wechat_mp' ? '验证并绑定' : '获取登录二维码'}
            </Button>
          </div>
        ) : null}

        {phase.kind === 'connecting' ? (
          <div className="bind-status" role="status">
            <Spin /> 正在打开登录页…
          </div>
        ) : null}

        {phase.kind === 'qr' ? (
          <div className="bind-qr">
            <div className="bind-qr-img">
              {phase.qrImage ? <img src={phase.qrImage} alt="登录二维码" width={200} height={200} data-testid="bind-qr" /> : null}
              {phase.state === 'expired' ? (
                <div className="bind-qr-mask">
                  <span>二维码已过期</span>
                  <Button size="small" onClick={() => void start()} data-testid="bind-refresh">
                    刷新二维码
                  </Button>
                </div>
              ) : null}
            </div>
            <p className="bind-state" role="status" aria-live="polite" data-testid="bind-state" data-state={phase.state}>
              {connectionStateText[phase.state]}
            </p>
            <p className="muted small">请使用{PLATFORM_OPTIONS.find((o) => o.value === platform)?.label}App扫码并确认登录。</p>
            {phase.scanUrl ? (
              <Space>
                <Tag color="orange">沙箱</Tag>
                <a href={phase.scanUrl} target="_blank" rel="noopener noreferrer" data-testid="bind-scan-url">
                  在新窗口打开模拟手机
                </a>
              </Space>
            ) : null}
          </div>
        ) : null}

        {phase.kind === 'finishing' ? (
          <div className="bind-status" role="status">
            <Spin /> 正在完成绑定…
          </div>
        ) : null}

        {phase.kind === 'done' ? (
          <Alert
            type="success"
            showIcon
            title={`已绑定「${phase.accountName}」`}
            data-testid="bind-done"
            action={
              <div className="stack-actions">
                <Button size="small" type="primary" onClick={props.onClose} data-testid="bind-finish">
                  完成
                </Button>
                <Button size="small" onClick={() => setPhase({ kind: 'pick' })}>
                  继续绑定
                </Button>
              </div>
            }
          />
        ) : null}

        {phase.kind === 'error' ? (
          <Alert
            type="error"
            showIcon
            title={phase.text}
            data-testid="bind-error"
            action={
              <Button size="small" onClick={() => void start()}>
                重试
              </Button>
            }
          />
        ) : null}
      </div>
    </Modal>
  );
}
