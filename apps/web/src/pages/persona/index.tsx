import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Form, Input, List, Popconfirm, Result, Select, Skeleton } from 'antd';
import { ErrorCode } from '@inkstone/shared';
import { PageFrame } from '../../components/page-frame';
import { useGlobalStore, useIsLogin } from '../../stores/global';
import { writingApi, type Persona } from '../../api/writing';
import { isApiError } from '../../api/request';
import { toast } from '../../features/notifications/toasts';
import '../../features/writing/writing.css';
import { queryKeys } from '../../api/query-keys';
import { settle } from '../../api/request';

interface FormValues {
  name: string;
  platform: string;
  industry: string;
  audience: string;
  tone: string;
  tabooWords: string[];
  sampleTexts: string[];
}

const empty: FormValues = { name: '', platform: '', industry: '', audience: '', tone: '', tabooWords: [], sampleTexts: [''] };
const platforms = ['小红书', '微信公众号', '抖音', '知乎', '微博', 'B站'].map((v) => ({ value: v }));

const toForm = (p: Persona): FormValues => ({ ...p, sampleTexts: p.sampleTexts.length ? p.sampleTexts : [''] });

export default function PersonaPage() {
  const { personaId } = useParams();
  const isLogin = useIsLogin();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const isNew = personaId === 'new';
  const id = !isNew && personaId && /^\d+$/.test(personaId) ? Number(personaId) : null;
  /** An address that cannot name a persona (/accountManager/persona/abc) is a not-found, not a blank form. */
  const badAddress = !isNew && id === null;
  const loggedIn = isLogin === true;

  const list = useQuery({ queryKey: queryKeys.persona.list, queryFn: writingApi.personas, enabled: loggedIn });
  const detail = useQuery({
    queryKey: queryKeys.persona.detail(id),
    // Silent: the page itself says what went wrong, once (a toast per retry said it several times).
    queryFn: () => writingApi.persona(id!, { silent: true }),
    enabled: loggedIn && id !== null,
    // A server answer (e.g. 1002 不存在) will not change on retry; only a dropped connection is retried.
    retry: (failures, err) => !(isApiError(err) && err.kind === 'code') && failures < 2,
  });
  const notFound = badAddress || (detail.isError && isApiError(detail.error) && detail.error.code === ErrorCode.NOT_FOUND);

  useEffect(() => {
    form.setFieldsValue(id === null ? empty : detail.data ? toForm(detail.data) : empty);
  }, [id, detail.data, form]);

  const onSave = async (v: FormValues) => {
    try {
      const saved = await writingApi.savePersona({
        id,
        name: v.name,
        platform: v.platform ?? '',
        industry: v.industry ?? '',
        audience: v.audience ?? '',
        tone: v.tone ?? '',
        tabooWords: (v.tabooWords ?? []).map((w) => w.trim()).filter(Boolean),
        sampleTexts: (v.sampleTexts ?? []).filter((t) => t && t.trim()),
      });
      toast.message('success', '人设已保存', 2);
      await qc.invalidateQueries({ queryKey: queryKeys.persona.all });
      if (id !== saved.id) navigate(`/accountManager/persona/${saved.id}`, { replace: true });
    } catch {
      // the request layer showed the server's message (it names the field)
    }
  };

  const onDelete = async () => {
    if (id === null) return;
    try {
      await writingApi.deletePersona(id);
      await qc.invalidateQueries({ queryKey: queryKeys.persona.all });
      navigate('/accountManager/persona/new', { replace: true });
    } catch {
      // see onSave
    }
  };

  if (!loggedIn) {
    return (
      <PageFrame testId="page-persona" title="人设">
        <Empty description="登录后管理你的账号人设">
          <Button type="primary" onClick={() => useGlobalStore.getState().openModal('login')}>
            登录
          </Button>
        </Empty>
      </PageFrame>
    );
  }

  return (
    <PageFrame testId="page-persona" title={notFound ? '人设不存在' : id === null ? '新建人设' : '编辑人设'} extra={<Link to="/accountManager">返回账号管理</Link>}>
      <div className="persona-layout">
        <aside className="persona-list" data-testid="persona-list">
          <Button block type="dashed" onClick={() => navigate('/accountManager/persona/new')} style={{ marginBottom: 8 }}>
            新建人设
          </Button>
          {list.isError ? <Alert type="error" title="人设列表加载失败" /> : null}
          <List
            size="small"
            loading={list.isLoading}
            dataSource={list.data ?? []}
            locale={{ emptyText: '还没有人设' }}
            renderItem={(p) => (
              <List.Item className={p.id === id ? 'draft-current' : undefined}>
                <Link to={`/accountManager/persona/${p.id}`}>{p.name}</Link>
                <span className="muted">{p.platform}</span>
              </List.Item>
            )}
          />
        </aside>
        <div className="persona-form">
          {id !== null && detail.isLoading ? <Skeleton active /> : null}
          {notFound ? (
            <Result
              status="404"
              title="人设不存在或已删除"
              subTitle="它可能已被删除，或者链接有误。"
              data-testid="persona-not-found"
              extra={[
                <Button key="new" type="primary" onClick={() => navigate('/accountManager/persona/new')}>
                  新建人设
                </Button>,
                <Button key="back" onClick={() => navigate('/accountManager')}>
                  返回账号管理
                </Button>,
              ]}
            />
          ) : null}
          {!notFound && detail.isError ? (
            <Result
              status="warning"
              title="人设加载失败"
              subTitle="请检查网络后重试。"
              data-testid="persona-load-failed"
              extra={
                <Button type="primary" onClick={() => detail.refetch()}>
                  重试
                </Button>
              }
            />
          ) : null}
          <Form<FormValues>
            form={form}
            layout="vertical"
            initialValues={empty}
            onFinish={(v) => settle(onSave(v))}
            data-testid="persona-form"
            hidden={badAddress || (id !== null && !detail.data)}
          >
            <Form.Item
              name="name"
              label="人设名称"
              rules={[
                { required: true, whitespace: true, message: '请输入人设名称' },
                { max: 30, message: '人设名称最多30字' },
              ]}
            >
              <Input maxLength={30} placeholder="例如：职场成长博主" />
            </Form.Item>
            <Form.Item name="platform" label="平台">
              <Select options={platforms} placeholder="发布平台" allowClear showSearch />
            </Form.Item>
            <Form.Item name="industry" label="行业">
              <Input maxLength={30} placeholder="例如：科技、教育、美食" />
            </Form.Item>
            <Form.Item name="audience" label="目标读者">
              <Input.TextArea maxLength={200} autoSize={{ minRows: 2 }} placeholder="他们是谁、关心什么" />
            </Form.Item>
            <Form.Item name="tone" label="语气">
              <Input maxLength={100} placeholder="例如：亲切、干货、带一点幽默" />
            </Form.Item>
            <Form.Item name="tabooWords" label="禁用词" extra="输入后按回车添加；写作时会避开这些词">
              <Select mode="tags" aria-label="禁用词" tokenSeparators={[',', '，']} open={false} maxCount={100} />
            </Form.Item>
            <Form.List name="sampleTexts">
              {(fields, { add, remove }) => (
                <>
                  {fields.map((f, i) => (
                    <Form.Item key={f.key} label={`示例文本 ${i + 1}`} extra={i === 0 ? '贴一篇你写过的文章，AI 会参考它的口吻' : undefined}>
                      <Form.Item name={f.name} noStyle>
                        <Input.TextArea maxLength={5000} autoSize={{ minRows: 3, maxRows: 8 }} aria-label={`示例文本 ${i + 1}`} />
                      </Form.Item>
                      {fields.length > 1 ? (
                        <Button type="link" size="small" onClick={() => remove(f.name)}>
                          删除这篇
                        </Button>
                      ) : null}
                    </Form.Item>
                  ))}
                  {fields.length < 5 ? (
                    <Button type="dashed" onClick={() => add('')} style={{ marginBottom: 16 }}>
                      添加示例文本
                    </Button>
                  ) : null}
                </>
              )}
            </Form.List>
            <div className="modal-actions">
              {id !== null ? (
                <Popconfirm title="删除这个人设？" onConfirm={() => settle(onDelete())}>
                  <Button danger>删除</Button>
                </Popconfirm>
              ) : null}
              <Button type="primary" htmlType="submit" data-testid="persona-save">
                保存人设
              </Button>
            </div>
          </Form>
        </div>
      </div>
    </PageFrame>
  );
}
