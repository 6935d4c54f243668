import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, Modal, Radio, Space, Spin, Tag } from 'antd';
import type { PublishPlatform } from '../../api/publish';
import { connectionStateText } from './format';
import { usePlatforms, type PlatformInfo } from './platforms';
import { useBindFlow, type BindPhase } from './use-bind-flow';
import './publish.css';
import { settle } from '../../api/request';

export interface BindModalProps {
  open: boolean;
  /** Re-binding an expired account starts on its platform. */
  platform?: PublishPlatform;
  onClose(): void;
  onBound(): void;
}

type Credentials = { appId: string; appSecret: string };

/** The official API's keys, for a platform that logs in with credentials instead of a QR (公众号). */
function CredentialsForm({ form }: { form: ReturnType<typeof Form.useForm<Credentials>>[0] }) {
  return (
    <Form form={form} layout="vertical" className="bind-wechat" requiredMark={false}>
      <Form.Item name="appId" label="AppID" rules={[{ required: true, whitespace: true, message: '请输入公众号 AppID' }]}>
        <Input autoComplete="off" maxLength={64} placeholder="公众号开发者 ID (AppID)" />
      </Form.Item>
      <Form.Item name="appSecret" label="AppSecret" rules={[{ required: true, whitespace: true, message: '请输入公众号 AppSecret' }]}>
        <Input.Password autoComplete="off" maxLength={128} placeholder="公众号开发者密码 (AppSecret)" />
      </Form.Item>
      <p className="muted small">凭据在服务端加密保存，仅用于发布到该公众号。</p>
    </Form>
  );
}

/** The platform's login QR with its live state; an expired QR can be refreshed in place. */
function BindQr({ phase, platformName, onRefresh }: { phase: Extract<BindPhase, { kind: 'qr' }>; platformName: string; onRefresh(): void }) {
  return (
    <div className="bind-qr">
      <div className="bind-qr-img">
        {phase.qrImage ? <img src={phase.qrImage} alt="登录二维码" width={200} height={200} data-testid="bind-qr" /> : null}
        {phase.state === 'expired' ? (
          <div className="bind-qr-mask">
            <span>二维码已过期</span>
            <Button size="small" onClick={onRefresh} data-testid="bind-refresh">
              刷新二维码
            </Button>
          </div>
        ) : null}
      </div>
      <p className="bind-state" role="status" aria-live="polite" data-testid="bind-state" data-state={phase.state}>
        {connectionStateText[phase.state]}
      </p>
      <p className="muted small">请使用{platformName}App扫码并确认登录。</p>
      {phase.scanUrl ? (
        <Space>
          <Tag color="orange">沙箱</Tag>
          <a href={phase.scanUrl} target="_blank" rel="noopener noreferrer" data-testid="bind-scan-url">
            在新窗口打开模拟手机
          </a>
        </Space>
      ) : null}
    </div>
  );
}

/** What follows the platform picker, phase by phase. */
function BindPhaseView(props: { phase: BindPhase; info: PlatformInfo | undefined; onStart(): void; onAgain(): void; onFinish(): void }) {
  const { phase, info } = props;
  switch (phase.kind) {
    case 'pick':
      return (
        <div className="bind-actions">
          {info?.sandbox ? (
            <p className="muted small">
              <Tag color="orange">沙箱</Tag>模拟的创作平台，用于体验和测试，不会发布到任何真实平台。
            </p>
          ) : null}
          <Button type="primary" onClick={props.onStart} disabled={!info} data-testid="bind-start">
            {info?.login === 'credentials' ? '验证并绑定' : '获取登录二维码'}
          </Button>
        </div>
      );
    case 'connecting':
      return (
        <div className="bind-status" role="status">
          <Spin /> 正在打开登录页…
        </div>
      );
    case 'qr':
      return <BindQr phase={phase} platformName={info?.platformName ?? ''} onRefresh={props.onStart} />;
    case 'finishing':
      return (
        <div className="bind-status" role="status">
          <Spin /> 正在完成绑定…
        </div>
      );
    case 'done':
      return (
        <Alert
          type="success"
          showIcon
          title={`已绑定「${phase.accountName}」`}
          data-testid="bind-done"
          action={
            <div className="stack-actions">
              <Button size="small" type="primary" onClick={props.onFinish} data-testid="bind-finish">
                完成
              </Button>
              <Button size="small" onClick={props.onAgain}>
                继续绑定
              </Button>
            </div>
          }
        />
      );
    case 'error':
      return (
        <Alert
          type="error"
          showIcon
          title={phase.text}
          data-testid="bind-error"
          action={
            <Button size="small" onClick={props.onStart}>
              重试
            </Button>
          }
        />
      );
  }
}

/** Binds a platform account: the platforms and how each logs in (QR or API credentials) come from the server. */
export function BindModal(props: BindModalProps) {
  const { platforms } = usePlatforms(props.open);
  const [chosen, setChosen] = useState<PublishPlatform | undefined>(props.platform);
  const [form] = Form.useForm<Credentials>();
  const { phase, setPhase, start, reset, releaseLive } = useBindFlow(props.onBound);
  // Until the user picks, the dialog starts on the asked-for platform, else the server's first one.
  const platform = chosen ?? platforms[0]?.platform;
  const info = platforms.find((p) => p.platform === platform);

  useEffect(() => {
    if (props.open) {
      setChosen(props.platform);
      reset();
    }
  }, [props.open, props.platform, reset]);

  const begin = async () => {
    if (!info) return;
    let creds: Partial<Credentials> = {};
    if (info.login === 'credentials') {
      try {
        creds = await form.validateFields();
      } catch {
        return;
      }
    }
    await start(info, creds);
  };

  const close = () => {
    if (phase.kind !== 'done') releaseLive();
    props.onClose();
  };

  const busy = phase.kind === 'connecting' || phase.kind === 'finishing';

  return (
    <Modal open={props.open} title="绑定平台账号" onCancel={close} footer={null} destroyOnHidden maskClosable={!busy} width={480}>
      <div className="bind-modal" data-testid="bind-modal">
        <Radio.Group
          value={platform}
          onChange={(e) => {
            setChosen(e.target.value as PublishPlatform);
            releaseLive();
            setPhase({ kind: 'pick' });
          }}
          optionType="button"
          buttonStyle="solid"
          disabled={busy}
          options={platforms.map((o) => ({ value: o.platform, label: o.platformName }))}
          aria-label="选择平台"
          data-testid="bind-platform"
        />

        {info?.login === 'credentials' && (phase.kind === 'pick' || phase.kind === 'error') ? <CredentialsForm form={form} /> : null}

        <BindPhaseView phase={phase} info={info} onStart={() => settle(begin())} onAgain={() => setPhase({ kind: 'pick' })} onFinish={props.onClose} />
      </div>
    </Modal>
  );
}
