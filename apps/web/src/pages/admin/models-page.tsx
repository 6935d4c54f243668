import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Form, Input, InputNumber, Modal, Segmented, Select, Space, Switch, Table, Tabs, Tag } from 'antd';
import { adminRoleAtLeast, type AdminLexiconWord, type AdminModel, type AdminSource } from '@inkstone/shared';
import type { AdminMe } from '../../api/admin';
import { dateTime } from '../../features/vip/format';
import { adminApi } from './admin-api';
import { pretty } from './format';

const PAGE_SIZE = 20;
const CAPABILITIES = [
  { value: 'article', label: '文章' },
  { value: 'ability', label: '改写能力' },
  { value: 'title', label: '标题' },
];

/** 模型与来源: the models writers choose from (keys write-only) and the sensitive words. */
export default function ModelsPage({ me }: { me: AdminMe }) {
  const canWrite = adminRoleAtLeast(me.role, 'operator');
  return (
    <Tabs
      data-testid="admin-models"
      items={[
        { key: 'models', label: '模型配置', children: <ModelsTab canWrite={canWrite} /> },
        { key: 'lexicon', label: '敏感词', children: <LexiconTab canWrite={canWrite} /> },
        { key: 'sources', label: '搜索与热榜来源', children: <SourcesTab canWrite={canWrite} /> },
        { key: 'flags', label: '功能开关', children: <FlagsTab /> },
      ]}
    />
  );
}

const sourceKindLabel: Record<AdminSource['kind'], string> = { search: '联网搜索', trends: '热榜', imagegen: 'AI配图' };

function ModelsTab({ canWrite }: { canWrite: boolean }) {
  const { message, modal } = App.useApp();
  const [editing, setEditing] = useState<AdminModel | 'new' | null>(null);
  const list = useQuery({ queryKey: ['admin', 'models'], queryFn: () => adminApi.models(), retry: false });
  const test = useMutation({
    mutationFn: (id: string) => adminApi.testModel(id),
    onSuccess: (r, id) => {
      if (r.ok) message.success(`${id} 连接正常，用时 ${r.latencyMs} ms`);
      else
        modal.error({
          title: `${id} 连接失败（${r.latencyMs} ms）`,
          content: (
            <pre className="admin-pre" data-testid="admin-model-test-error">
              {r.error}
            </pre>
          ),
        });
    },
  });
  const data = list.data;
  return (
    <Card
      title="模型配置"
      extra={
        canWrite ? (
          <Button type="primary" onClick={() => setEditing('new')} data-testid="admin-model-add">
            添加模型
          </Button>
        ) : null
      }
    >
      {list.isError ? <Alert type="error" showIcon title={`加载失败：${list.error.message}`} style={{ marginBottom: 12 }} /> : null}
      {data ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={`修改立即对本服务器生效，其他服务器进程最迟 ${data.reloadSeconds} 秒内生效。API Key 只能写入，不会显示。${
            data.defaultFromConfig ? `默认模型由服务器配置 LLM_DEFAULT_MODEL 固定为 ${data.defaultId}，此处的“默认”开关暂不生效。` : `当前默认模型：${data.defaultId}。`
          }`}
        />
      ) : null}
      <Table<AdminModel>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={data?.records ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description="还没有配置模型（写作使用离线写手）" /> }}
        columns={[
          { title: 'ID', dataIndex: 'id', render: (id: string) => <code>{id}</code> },
          { title: '名称', dataIndex: 'label' },
          { title: '模型名', dataIndex: 'model' },
          { title: '接口地址', dataIndex: 'baseUrl', ellipsis: true },
          { title: 'API Key', dataIndex: 'apiKey', render: (k: string | null) => (k ? <Tag color="green">{k}</Tag> : <Tag>未设置</Tag>) },
          { title: '计费项', dataIndex: 'pointsFeature', render: (f: string | null) => f ?? '按写作类型' },
          {
            title: '状态',
            key: 'state',
            render: (_: unknown, r) => (
              <Space size={4}>
                {r.enabled ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>}
                {r.id === data?.defaultId ? <Tag color="blue">默认</Tag> : null}
                {r.source === 'config' ? <Tag color="purple">服务器配置</Tag> : null}
              </Space>
            ),
          },
          { title: '更新时间', dataIndex: 'updatedAt', render: (t: string | null) => (t ? dateTime(t) : '—') },
          {
            title: '',
            key: 'op',
            render: (_: unknown, r) =>
              canWrite ? (
                <Space>
                  <Button size="small" loading={test.isPending && test.variables === r.id} onClick={() => test.mutate(r.id)} data-testid={`admin-model-test-${r.id}`}>
                    连接测试
                  </Button>
                  {r.source === 'admin' ? (
                    <Button size="small" onClick={() => setEditing(r)} data-testid={`admin-model-edit-${r.id}`}>
                      编辑
                    </Button>
                  ) : null}
                </Space>
              ) : null,
          },
        ]}
      />
      {editing ? <ModelModal model={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
    </Card>
  );
}

interface ModelForm {
  id: string;
  label: string;
  baseUrl: string;
  model: string;
  apiKey?: string;
  pointsFeature?: string;
  capabilities: string[];
  enabled: boolean;
  isDefault: boolean;
  sort: number;
}

function ModelModal({ model, onClose }: { model: AdminModel | null; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ModelForm>();
  const save = useMutation({
    mutationFn: (v: ModelForm) => {
      const body = { ...v, apiKey: v.apiKey?.trim() || undefined, pointsFeature: v.pointsFeature?.trim() || undefined };
      return model ? adminApi.updateModel(body) : adminApi.createModel(body);
    },
    onSuccess: async (m) => {
      message.success(model ? `已保存 ${m.id}` : `已添加 ${m.id}`);
      await queryClient.invalidateQueries({ queryKey: ['admin', 'models'] });
      onClose();
    },
  });
  const initial: ModelForm = model
    ? { ...model, pointsFeature: model.pointsFeature ?? undefined, apiKey: undefined }
    : { id: '', label: '', baseUrl: '', model: '', capabilities: [], enabled: true, isDefault: false, sort: 0 };
  return (
    <Modal open title={model ? `编辑模型 ${model.id}` : '添加模型'} okText="保存" confirmLoading={save.isPending} onOk={() => form.submit()} onCancel={onClose} destroyOnHidden>
      <Form<ModelForm> form={form} layout="vertical" initialValues={initial} onFinish={(v) => save.mutate(v)} data-testid="admin-model-form">
        <Form.Item
          name="id"
          label="模型 ID（写作请求中的 modelConfigType）"
          rules={[{ required: true, pattern: /^[\w.-]{1,64}$/, message: '1到64位字母、数字、下划线、点或连字符' }]}
        >
          <Input disabled={Boolean(model)} maxLength={64} />
        </Form.Item>
        <Form.Item name="label" label="显示名称" rules={[{ required: true, message: '请填写名称' }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item
          name="baseUrl"
          label="接口地址（OpenAI 兼容，如 https://api.deepseek.com/v1）"
          rules={[{ required: true, pattern: /^https?:\/\/\S+$/, message: '请填写 http(s) 地址' }]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="model" label="模型名" rules={[{ required: true, message: '请填写模型名' }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item
          name="apiKey"
          label={model ? `API Key（当前：${model.apiKey ?? '未设置'}）` : 'API Key'}
          rules={model ? [] : [{ required: true, message: '新模型需要填写 API Key' }]}
        >
          <Input.Password placeholder={model ? '留空则不修改' : '只能写入，保存后不再显示'} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="pointsFeature" label="计费项（积分字典中的功能，留空则按写作类型计费）">
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="capabilities" label="能力（留空为全部）">
          <Select mode="multiple" options={CAPABILITIES} allowClear />
        </Form.Item>
        <Form.Item name="sort" label="排序（小的在前）">
          <InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Space size={32}>
          <Form.Item name="enabled" label="启用" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="isDefault" label="设为默认" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}

function LexiconTab({ canWrite }: { canWrite: boolean }) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [pageNum, setPageNum] = useState(1);
  const [q, setQ] = useState('');
  const [source, setSource] = useState<'all' | 'bundled' | 'added'>('all');
  const [word, setWord] = useState('');
  const words = useQuery({
    queryKey: ['admin', 'lexicon', q, source, pageNum],
    queryFn: () => adminApi.lexicon({ q: q || undefined, source, pageNum, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'lexicon'] });
  const add = useMutation({
    mutationFn: (w: string) => adminApi.addWord(w),
    onSuccess: async (w) => {
      message.success(`已添加「${w.word}」，立即生效`);
      setWord('');
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (w: string) => adminApi.removeWord(w),
    onSuccess: async (w) => {
      message.success(`已删除「${w.word}」`);
      await refresh();
    },
  });
  const data = words.data;
  return (
    <Card
      title="敏感词"
      extra={
        data ? (
          <span className="muted">
            内置 {data.bundledCount} 个，后台添加 {data.addedCount} 个
          </span>
        ) : null
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder="搜索词语"
          onSearch={(v) => {
            setQ(v.trim());
            setPageNum(1);
          }}
          style={{ width: 220 }}
          data-testid="admin-lexicon-search"
        />
        <Segmented<'all' | 'bundled' | 'added'>
          value={source}
          onChange={(v) => {
            setSource(v);
            setPageNum(1);
          }}
          options={[
            { value: 'all', label: '全部' },
            { value: 'added', label: '后台添加' },
            { value: 'bundled', label: '内置' },
          ]}
        />
        {canWrite ? (
          <Space.Compact>
            <Input
              placeholder="新敏感词"
              maxLength={50}
              value={word}
              onChange={(e) => setWord(e.target.value)}
              onPressEnter={() => word.trim() && add.mutate(word.trim())}
              data-testid="admin-lexicon-word"
            />
            <Button type="primary" disabled={!word.trim()} loading={add.isPending} onClick={() => add.mutate(word.trim())} data-testid="admin-lexicon-add">
              添加
            </Button>
          </Space.Compact>
        ) : null}
      </Space>
      {words.isError ? <Alert type="error" showIcon title={`加载失败：${words.error.message}`} style={{ marginBottom: 12 }} /> : null}
      <Table<AdminLexiconWord>
        rowKey={(r) => `${r.source}:${r.word}`}
        size="small"
        loading={words.isFetching}
        dataSource={data?.records ?? []}
        locale={{ emptyText: <Empty description={q ? '没有匹配的词语' : '没有词语'} /> }}
        pagination={{ current: pageNum, pageSize: PAGE_SIZE, total: data?.total ?? 0, onChange: setPageNum, showSizeChanger: false }}
        columns={[
          { title: '词语', dataIndex: 'word' },
          { title: '来源', dataIndex: 'source', render: (s: AdminLexiconWord['source']) => (s === 'added' ? <Tag color="blue">后台添加</Tag> : <Tag>内置（只读）</Tag>) },
          { title: '添加时间', dataIndex: 'createdAt', render: (t: string | null) => (t ? dateTime(t) : '—') },
          {
            title: '',
            key: 'op',
            render: (_: unknown, r) =>
              canWrite && r.source === 'added' ? (
                <Button
                  size="small"
                  danger
                  onClick={() => modal.confirm({ title: `删除「${r.word}」？`, content: '删除后立即不再拦截含有该词的内容。', onOk: () => remove.mutateAsync(r.word) })}
                  data-testid={`admin-lexicon-remove-${r.word}`}
                >
                  删除
                </Button>
              ) : null,
          },
        ]}
      />
    </Card>
  );
}

function SourcesTab({ canWrite }: { canWrite: boolean }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['admin', 'sources'], queryFn: () => adminApi.sources(), retry: false });
  const toggle = useMutation({
    mutationFn: (s: AdminSource) => adminApi.switchSource({ kind: s.kind, id: s.id, enabled: !s.enabled }),
    onSuccess: async (s) => {
      message.success(`${s.name} 已${s.enabled ? '启用' : '停用'}，立即生效`);
      await queryClient.invalidateQueries({ queryKey: ['admin', 'sources'] });
    },
  });
  return (
    <Card title="搜索与热榜来源">
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title="来源在服务器环境中配置（SEARCH_PROVIDER、TRENDS_SOURCES、IMAGEGEN_PROVIDER），这里只显示是否配置，不显示密钥；已配置的来源可在此停用或重新启用，立即生效。命令行添加的订阅源请用 topic:source:* 命令切换。"
      />
      {list.isError ? <Alert type="error" showIcon title={`加载失败：${list.error.message}`} style={{ marginBottom: 12 }} /> : null}
      <Table<AdminSource>
        rowKey={(r) => `${r.kind}:${r.id}`}
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.records ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description="没有来源" /> }}
        columns={[
          { title: '类型', dataIndex: 'kind', render: (k: AdminSource['kind']) => sourceKindLabel[k] },
          { title: '来源', dataIndex: 'name', render: (n: string, r) => (r.live ? n : `${n}（内置快照）`) },
          { title: 'ID', dataIndex: 'id', render: (id: string) => <code>{id}</code> },
          { title: '配置', dataIndex: 'configured', render: (c: boolean) => (c ? <Tag color="green">已配置</Tag> : <Tag>未配置</Tag>) },
          {
            title: '最近抓取',
            key: 'fetch',
            render: (_: unknown, r) =>
              r.kind !== 'trends' ? '—' : r.lastFetchedAt ? `${dateTime(r.lastFetchedAt)} ${r.ok === false ? `失败：${r.error ?? ''}` : '成功'}` : '尚未抓取',
          },
          {
            title: '启用',
            key: 'enabled',
            render: (_: unknown, r) =>
              r.configured ? (
                <Switch
                  checked={r.enabled}
                  disabled={!canWrite || !r.switchable}
                  loading={toggle.isPending && toggle.variables?.id === r.id && toggle.variables.kind === r.kind}
                  onChange={() => toggle.mutate(r)}
                  data-testid={`admin-source-${r.kind}-${r.id}`}
                />
              ) : (
                '—'
              ),
          },
        ]}
      />
    </Card>
  );
}

function FlagsTab() {
  const flags = useQuery({ queryKey: ['admin', 'flags'], queryFn: () => adminApi.flags(), retry: false });
  const data = flags.data;
  return (
    <Card title="功能开关（只读）" loading={flags.isLoading}>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title={`当前下发给客户端的 GrowthBook 配置，来自${data?.file ? ` FEATURES_FILE（${data.file}）` : '内置默认值（全部关闭）'}，服务器启动时读取一次；修改需编辑该文件并重启，后台暂不支持编辑。`}
      />
      {flags.isError ? <Alert type="error" showIcon title={`加载失败：${flags.error.message}`} /> : null}
      {data ? (
        <Table
          rowKey="key"
          size="small"
          pagination={false}
          dataSource={Object.entries(data.payload.features).map(([key, def]) => ({ key, def }))}
          locale={{ emptyText: <Empty description="没有功能开关" /> }}
          columns={[
            { title: '开关', dataIndex: 'key', render: (k: string) => <code>{k}</code> },
            { title: '定义（默认值与规则）', dataIndex: 'def', render: (d: unknown) => <pre className="admin-pre">{pretty(d)}</pre> },
          ]}
          data-testid="admin-flags"
        />
      ) : null}
    </Card>
  );
}
