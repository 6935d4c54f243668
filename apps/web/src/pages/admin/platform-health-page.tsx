import { useEffect, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Empty, Image, Input, Segmented, Space, Table, Tag, Typography } from 'antd';
import { adminRoleAtLeast, ErrorCode, type AdminSiteProfile, type AdminSiteProfileVersion, type AdminStepFailure } from '@inkstone/shared';
import type { AdminMe } from '../../api/admin';
import { isApiError } from '../../api/request';
import { dateTime } from '../../features/vip/format';
import { adminApi, type SitePlatform } from './admin-api';
import { pretty } from './format';

const PAGE_SIZE = 20;
const SOURCE_LABEL: Record<AdminStepFailure['source'], string> = { publish: '发布', binding: '绑定', canary: '巡检' };

/**
 * 平台健康: how each creator site's automation is failing (by step, last 24 hours and 7 days), the failures with
 * their diagnostics, and the selector editor (built-in profile, the active override, versions and rollback).
 */
export default function PlatformHealthPage({ me }: { me: AdminMe }) {
  const canWrite = adminRoleAtLeast(me.role, 'operator');
  const overview = useQuery({ queryKey: ['admin', 'platform-health'], queryFn: () => adminApi.platformHealth(), retry: false });
  const platforms = overview.data?.platforms ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const current = platforms.find((p) => p.platform === chosen) ?? platforms[0];
  return (
    <div data-testid="admin-platform-health">
      {overview.isError ? <Alert type="error" showIcon title={`加载失败：${overview.error.message}`} style={{ marginBottom: 12 }} /> : null}
      <Segmented
        style={{ marginBottom: 16 }}
        value={current?.platform}
        onChange={(v) => setChosen(String(v))}
        options={platforms.map((p) => ({ value: p.platform, label: `${p.label}${p.week ? `（7天 ${p.week}）` : ''}` }))}
        data-testid="admin-health-platforms"
      />
      {current ? (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Card
            title={`${current.label}：步骤失败次数`}
            extra={current.editable ? <Tag color="blue">生效配置：{current.activeVersion ? `版本 ${current.activeVersion}` : '内置'}</Tag> : null}
          >
            <Table
              rowKey="step"
              size="small"
              pagination={false}
              dataSource={current.steps}
              data-testid="admin-health-steps"
              locale={{ emptyText: <Empty description="最近7天没有步骤失败" /> }}
              columns={[
                { title: '步骤', dataIndex: 'label', render: (label: string, r) => `${label}（${r.step}）` },
                { title: '近24小时', dataIndex: 'day' },
                { title: '近7天', dataIndex: 'week' },
              ]}
            />
          </Card>
          <FailuresCard key={`f-${current.platform}`} platform={current.platform as SitePlatform} />
          {current.editable ? (
            <ProfileCard key={`p-${current.platform}`} platform={current.platform as SitePlatform} canWrite={canWrite} />
          ) : (
            <Alert type="info" showIcon title={`${current.label}通过接口发布，没有可调整的页面选择器。`} />
          )}
        </Space>
      ) : null}
    </div>
  );
}

function FailuresCard({ platform }: { platform: SitePlatform }) {
  const [pageNum, setPageNum] = useState(1);
  const list = useQuery({
    queryKey: ['admin', 'platform-health', 'failures', platform, pageNum],
    queryFn: () => adminApi.stepFailures({ platform, pageNum, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  return (
    <Card title="最近的失败">
      <Table<AdminStepFailure>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.records ?? []}
        data-testid="admin-health-failures"
        scroll={{ x: 900 }}
        locale={{ emptyText: <Empty description="没有记录到步骤失败" /> }}
        expandable={{ expandedRowRender: (f) => <FailureDetail failure={f} /> }}
        pagination={{ current: pageNum, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPageNum, showSizeChanger: false }}
        columns={[
          { title: '时间', dataIndex: 'at', width: 170, render: (t: string) => dateTime(t) },
          { title: '步骤', dataIndex: 'stepLabel', render: (label: string, f) => `${label}（${f.key}）` },
          { title: '来源', dataIndex: 'source', width: 70, render: (s: AdminStepFailure['source']) => SOURCE_LABEL[s] },
          { title: '账号', dataIndex: 'accountId', width: 80, render: (id: number | null) => id ?? '—' },
          { title: '配置版本', dataIndex: 'profileVersion', width: 90, render: (v: number) => (v ? `版本 ${v}` : '内置') },
          { title: '原因', dataIndex: 'message', ellipsis: true },
        ]}
      />
    </Card>
  );
}

function FailureDetail({ failure: f }: { failure: AdminStepFailure }) {
  return (
    <Descriptions column={1} size="small" bordered data-testid={`admin-health-failure-${f.id}`}>
      <Descriptions.Item label="尝试过的选择器">
        {f.tried.length ? (
          <ol className="admin-selectors">
            {f.tried.map((s, i) => (
              <li key={i}>
                <code>{s}</code>
              </li>
            ))}
          </ol>
        ) : (
          '—'
        )}
      </Descriptions.Item>
      <Descriptions.Item label="页面地址">{f.url || '—'}</Descriptions.Item>
      <Descriptions.Item label="发布任务">{f.jobId ?? '—'}</Descriptions.Item>
      <Descriptions.Item label="截图">{f.screenshotUrl ? <ScreenshotButton id={f.id} /> : '未截到'}</Descriptions.Item>
      <Descriptions.Item label="页面片段（已脱敏）">
        <pre className="admin-json admin-dom">{f.domExcerpt || '—'}</pre>
      </Descriptions.Item>
    </Descriptions>
  );
}

function ScreenshotButton({ id }: { id: number }) {
  const [src, setSrc] = useState<string | null>(null);
  const load = useMutation({ mutationFn: async () => setSrc(URL.createObjectURL((await adminApi.stepScreenshot(id)).blob)) });
  useEffect(() => () => (src ? URL.revokeObjectURL(src) : undefined), [src]);
  return (
    <>
      <Button size="small" loading={load.isPending} onClick={() => (src ? setSrc(src) : load.mutate())} data-testid={`admin-health-shot-${id}`}>
        查看截图
      </Button>
      {src ? <Image src={src} alt="失败时的页面" style={{ display: 'none' }} preview={{ open: true, onOpenChange: (open) => (open ? undefined : setSrc(null)) }} /> : null}
    </>
  );
}

function ProfileCard({ platform, canWrite }: { platform: SitePlatform; canWrite: boolean }) {
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const profile = useQuery({ queryKey: ['admin', 'platform-health', 'profile', platform], queryFn: () => adminApi.siteProfile(platform), retry: false });
  const refresh = (p: AdminSiteProfile) => {
    qc.setQueryData(['admin', 'platform-health', 'profile', platform], p);
    void qc.invalidateQueries({ queryKey: ['admin', 'platform-health'], exact: true });
  };
  const rollback = useMutation({
    mutationFn: (version: number) => adminApi.rollbackSiteProfile(platform, version),
    onSuccess: (p) => {
      refresh(p);
      message.success(p.activeVersion ? `已回滚到版本 ${p.activeVersion}，下一次发布起生效` : '已恢复内置配置，下一次发布起生效');
    },
  });
  const confirmRollback = (version: number) =>
    modal.confirm({
      title: version ? `回滚到版本 ${version}？` : '恢复内置配置？',
      content: '所有服务器进程的下一次发布起使用该配置。',
      onOk: () => rollback.mutateAsync(version),
    });
  const p = profile.data;
  if (profile.isError) return <Alert type="error" showIcon title={`加载失败：${profile.error.message}`} />;
  if (!p) return <Card loading title="页面选择器" />;
  return (
    <Card
      title="页面选择器"
      data-testid="admin-health-profile"
      extra={
        canWrite && p.activeVersion ? (
          <Button danger onClick={() => confirmRollback(0)} data-testid="admin-health-builtin">
            恢复内置配置
          </Button>
        ) : null
      }
    >
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <BuiltInTable profile={p} />
        <div>
          <Typography.Title level={5}>当前生效的覆盖（{p.activeVersion ? `版本 ${p.activeVersion}` : '无，使用内置配置'}）</Typography.Title>
          <pre className="admin-json" data-testid="admin-health-active">
            {pretty(p.active)}
          </pre>
        </div>
        {canWrite ? <OverrideEditor profile={p} onSaved={refresh} /> : null}
        <VersionsTable versions={p.versions} canWrite={canWrite} onRollback={confirmRollback} />
      </Space>
    </Card>
  );
}

function BuiltInTable({ profile: p }: { profile: AdminSiteProfile }) {
  const effective = { ...p.builtIn.steps, ...p.active?.steps };
  const rows = Object.entries(p.builtIn.steps).map(([key, selectors]) => ({ key, selectors, overridden: p.active?.steps?.[key] ? effective[key]! : null }));
  return (
    <Table
      rowKey="key"
      size="small"
      pagination={false}
      dataSource={rows}
      title={() => '内置配置（随版本发布）'}
      columns={[
        { title: '步骤', dataIndex: 'key', width: 220, render: (key: string) => `${p.stepLabels[key] ?? key}（${key}）` },
        { title: '内置选择器（按顺序尝试）', dataIndex: 'selectors', render: (s: string[]) => <SelectorList selectors={s} /> },
        { title: '覆盖为', dataIndex: 'overridden', render: (s: string[] | null) => (s ? <SelectorList selectors={s} /> : <Tag>未覆盖</Tag>) },
      ]}
      footer={Object.keys(p.builtIn.paths).length ? () => <pre className="admin-json">{pretty(p.builtIn.paths)}</pre> : undefined}
    />
  );
}

const SelectorList = ({ selectors }: { selectors: string[] }) => (
  <ol className="admin-selectors">
    {selectors.map((s, i) => (
      <li key={i}>
        <code>{s}</code>
      </li>
    ))}
  </ol>
);

function OverrideEditor({ profile: p, onSaved }: { profile: AdminSiteProfile; onSaved: (p: AdminSiteProfile) => void }) {
  const { message } = App.useApp();
  const [text, setText] = useState(() => pretty(p.active ?? { steps: {} }));
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const save = useMutation({
    mutationFn: (override: Record<string, unknown>) => adminApi.saveSiteProfile({ platform: p.platform as SitePlatform, override, note }),
    onSuccess: (saved) => {
      setErrors([]);
      setNote('');
      onSaved(saved);
      message.success(`已保存为版本 ${saved.activeVersion}，下一次发布起生效`);
    },
    onError: (e) => {
      if (isApiError(e) && e.code === ErrorCode.VALIDATION) setErrors((e.data as { errors?: string[] } | null)?.errors ?? [e.message]);
    },
  });
  const submit = () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      setErrors(['配置不是合法的 JSON']);
      return;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return setErrors(['配置必须是 JSON 对象，如 {"steps": {"title": ["选择器"]}}']);
    if (!note.trim()) return setErrors(['请填写修改说明']);
    save.mutate(parsed as Record<string, unknown>);
  };
  return (
    <div data-testid="admin-health-editor">
      <Typography.Title level={5}>修改覆盖（保存为新版本，立即生效）</Typography.Title>
      <Typography.Paragraph type="secondary">
        只写需要替换的步骤：{'{"steps": {"title": ["新选择器", "备用选择器"]}}'}，每步1到12个选择器，按顺序尝试；未写的步骤使用内置配置。
      </Typography.Paragraph>
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        autoSize={{ minRows: 6, maxRows: 20 }}
        spellCheck={false}
        aria-label="覆盖配置 JSON"
        className="admin-code-input"
      />
      {errors.length ? (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 8 }}
          title="未保存"
          description={
            <ul className="admin-errors">
              {errors.map((e, i) => (
                <li key={i}>{e}</li>
              ))}
            </ul>
          }
          data-testid="admin-health-errors"
        />
      ) : null}
      <Space style={{ marginTop: 8 }}>
        <Input value={note} onChange={(e) => setNote(e.target.value)} placeholder="修改说明，如：标题输入框改版" maxLength={200} style={{ width: 360 }} aria-label="修改说明" />
        <Button type="primary" loading={save.isPending} onClick={submit} data-testid="admin-health-save">
          保存并生效
        </Button>
      </Space>
    </div>
  );
}

function VersionsTable({ versions, canWrite, onRollback }: { versions: AdminSiteProfileVersion[]; canWrite: boolean; onRollback: (version: number) => void }) {
  return (
    <Table<AdminSiteProfileVersion>
      rowKey="version"
      size="small"
      pagination={false}
      dataSource={versions}
      title={() => '版本历史'}
      data-testid="admin-health-versions"
      locale={{ emptyText: <Empty description="还没有保存过覆盖" /> }}
      expandable={{ expandedRowRender: (v) => <pre className="admin-json">{pretty(v.override)}</pre> }}
      columns={[
        { title: '版本', dataIndex: 'version', width: 80, render: (v: number, r) => (r.active ? <Tag color="green">版本 {v}（生效中）</Tag> : `版本 ${v}`) },
        { title: '说明', dataIndex: 'note' },
        { title: '保存人', dataIndex: 'createdByName', render: (n: string | null, r) => n ?? (r.createdBy ? `#${r.createdBy}` : '系统') },
        { title: '时间', dataIndex: 'createdAt', width: 170, render: (t: string) => dateTime(t) },
        {
          title: '',
          key: 'op',
          width: 110,
          render: (_: unknown, r) =>
            canWrite && !r.active ? (
              <Button size="small" onClick={() => onRollback(r.version)} data-testid={`admin-health-rollback-${r.version}`}>
                回滚到此版本
              </Button>
            ) : null,
        },
      ]}
    />
  );
}
