import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Input, List, Popconfirm, Space, Spin, Tag, Tooltip } from 'antd';
import { formatTimeAgo } from '@inkstone/shared';
import { PageFrame } from '../../components/page-frame';
import { topicApi } from '../../api/topic';
import { useIsLogin } from '../../stores/global';
import { toast } from '../../features/notifications/toasts';
import { selectedPersonaId, writeThis } from '../../features/topic/write-this';
import './divergent.css';
import { queryKeys } from '../../api/query-keys';
import { settle } from '../../api/request';

/** The part of simple-mind-map's instance this page uses (the library's own typings are loose). */
interface MindNode {
  isRoot: boolean;
  getData(key: string): unknown;
}
interface MindMapInstance {
  on(event: string, fn: (...args: never[]) => void): void;
  execCommand(name: string, ...args: unknown[]): void;
  getData(withConfig?: boolean): Record<string, unknown> & { data?: { text?: string }; root?: { data?: { text?: string } } };
  setFullData(data: unknown): void;
  export(type: string, download: boolean, name: string): Promise<unknown>;
  destroy(): void;
}
interface TreeNode {
  data: { text: string };
  children: TreeNode[];
}

const BRANCHES = ['写作角度', '目标读者', '可以回答的问题', '标题灵感'];
const startTree = (topic: string): TreeNode => ({ data: { text: topic }, children: BRANCHES.map((text) => ({ data: { text }, children: [] })) });
const plain = (v: unknown) => (typeof v === 'string' ? v.replace(/<[^>]*>/g, '').trim() : '');

export default function DivergentPage() {
  const isLogin = useIsLogin();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const qc = useQueryClient();
  const holder = useRef<HTMLDivElement>(null);
  const mm = useRef<MindMapInstance | null>(null);
  const [ready, setReady] = useState(false);
  const [loadError, setLoadError] = useState(false);
  const [active, setActive] = useState<MindNode | null>(null);
  const [mapId, setMapId] = useState<number | null>(params.get('id') ? Number(params.get('id')) : null);
  const [draftTopic, setDraftTopic] = useState('');
  const [expanding, setExpanding] = useState(false);
  const topic = params.get('topic')?.slice(0, 50) ?? '';

  const maps = useQuery({ queryKey: queryKeys.topic.maps, queryFn: topicApi.maps, enabled: isLogin === true, retry: false });

  /** Creates the map once the library chunk has loaded (it is only fetched on this page). */
  const mount = useCallback(async (data: unknown | null, root: TreeNode | null) => {
    if (!holder.current) return;
    try {
      const [{ default: MindMap }, { default: Export }, { default: Drag }] = await Promise.all([
        import('simple-mind-map'),
        import('simple-mind-map/src/plugins/Export.js'),
        import('simple-mind-map/src/plugins/Drag.js'),
      ]);
      const Ctor = MindMap as unknown as { new (opt: Record<string, unknown>): MindMapInstance };
      // The library's plugin registration (not a React hook, despite its name).
      const register = (MindMap as unknown as Record<string, (p: unknown) => void>)['usePlugin']!;
      register.call(MindMap, Export);
      register.call(MindMap, Drag);
      mm.current?.destroy();
      holder.current.innerHTML = '';
      const inst = new Ctor({
        el: holder.current,
        data: root ?? startTree('新的选题'),
        layout: 'mindMap',
        defaultInsertSecondLevelNodeText: '新分支',
        defaultInsertBelowSecondLevelNodeText: '新节点',
      });
      if (data) inst.setFullData(data);
      inst.on('node_active', ((_node: MindNode | null, list: MindNode[]) => setActive(list[0] ?? null)) as never);
      mm.current = inst;
      setActive(null);
      setReady(true);
    } catch {
      setLoadError(true);
    }
  }, []);

  useEffect(() => {
    if (isLogin !== true) return;
    const id = params.get('id');
    if (id) {
      topicApi.map(Number(id)).then(
        (m) => settle(mount(m.data, null).then(() => setMapId(m.id))),
        () => toast.message('error', '导图不存在或已删除', 3),
      );
    } else settle(mount(null, startTree(topic || '新的选题')));
    return () => {
      mm.current?.destroy();
      mm.current = null;
    };
    // Only on arrival: later changes of the address come from this page itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isLogin]);

  const rootText = () => plain(mm.current?.getData()?.data?.text) || '未命名导图';

  const save = useMutation({
    mutationFn: () => topicApi.saveMap({ ...(mapId ? { id: mapId } : {}), title: rootText().slice(0, 50), data: mm.current!.getData(true) }),
    onSuccess: (m) => {
      setMapId(m.id);
      setParams({ id: String(m.id) }, { replace: true });
      toast.message('success', '导图已保存', 2);
      qc.invalidateQueries({ queryKey: queryKeys.topic.maps });
    },
  });
  const remove = useMutation({
    mutationFn: topicApi.deleteMap,
    onSuccess: (_r, id) => {
      if (id === mapId) setMapId(null);
      qc.invalidateQueries({ queryKey: queryKeys.topic.maps });
    },
  });

  /** AI 扩展: angles for the node (a branch label expands the root topic), inserted as children. */
  const expand = async () => {
    if (!mm.current || !active) return;
    const text = plain(active.getData('text'));
    const subject = (BRANCHES.includes(text) || active.isRoot ? rootText() : text).slice(0, 50);
    setExpanding(true);
    try {
      const r = await topicApi.angles({ keyword: subject, count: 6, requestId: crypto.randomUUID(), personaId: selectedPersonaId() });
      const pick = (a: (typeof r.angles)[number]) =>
        text === '标题灵感' ? a.title : text === '可以回答的问题' ? `${a.angle}：${a.title}` : text === '目标读者' ? a.hook : `${a.angle}：${a.title}`;
      mm.current.execCommand(
        'INSERT_MULTI_CHILD_NODE',
        [active],
        r.angles.map((a) => ({ data: { text: pick(a) }, children: [] })),
      );
      toast.message('success', r.isAi ? `已扩展${r.angles.length}个节点（AI）` : `已扩展${r.angles.length}个节点（模板，非 AI）`, 3);
    } catch {
      // Shown by the request layer.
    } finally {
      setExpanding(false);
    }
  };

  const writeFrom = async () => {
    if (!active) return;
    const text = plain(active.getData('text'));
    const root = rootText();
    await writeThis('article', { title: active.isRoot || text === root ? root : `${root}——${text}` });
    navigate('/');
  };

  if (isLogin !== true) {
    return (
      <PageFrame testId="page-divergent" title="发散导图">
        <Empty description="登录后使用发散导图" />
      </PageFrame>
    );
  }
  return (
    <PageFrame testId="page-divergent" title="发散导图">
      <div className="divergent">
        <aside className="divergent-side">
          <Space.Compact style={{ width: '100%' }}>
            <Input placeholder="输入主题，新建导图" value={draftTopic} maxLength={50} onChange={(e) => setDraftTopic(e.target.value)} data-testid="divergent-new-topic" />
            <Button
              type="primary"
              disabled={!draftTopic.trim()}
              onClick={() => {
                setMapId(null);
                setParams({ topic: draftTopic.trim() }, { replace: true });
                settle(mount(null, startTree(draftTopic.trim())));
                setDraftTopic('');
              }}
            >
              新建
            </Button>
          </Space.Compact>
          <List
            className="divergent-maps"
            header={<b>我的导图</b>}
            loading={maps.isLoading}
            dataSource={maps.data ?? []}
            locale={{ emptyText: '还没有保存的导图' }}
            renderItem={(m) => (
              <List.Item
                data-testid="divergent-map-item"
                className={m.id === mapId ? 'active' : ''}
                actions={[
                  <Popconfirm key="d" title="删除这个导图？" onConfirm={() => remove.mutate(m.id)} okText="删除" cancelText="取消">
                    <Button type="link" size="small" danger>
                      删除
                    </Button>
                  </Popconfirm>,
                ]}
              >
                <a
                  onClick={() => {
                    setParams({ id: String(m.id) }, { replace: true });
                    settle(topicApi.map(m.id).then((full) => mount(full.data, null).then(() => setMapId(full.id))));
                  }}
                >
                  {m.title}
                </a>
                <div className="muted">{formatTimeAgo(m.updatedAt)}</div>
              </List.Item>
            )}
          />
        </aside>
        <section className="divergent-main">
          <Space wrap className="divergent-toolbar">
            <Button disabled={!active} onClick={() => mm.current?.execCommand('INSERT_CHILD_NODE')} data-testid="divergent-add">
              添加子节点
            </Button>
            <Button disabled={!active || active.isRoot} onClick={() => mm.current?.execCommand('REMOVE_NODE')}>
              删除节点
            </Button>
            <Tooltip title="为选中的节点生成写作角度（配置大模型时按次消耗积分；离线时为模板，非 AI）">
              <Button disabled={!active} loading={expanding} onClick={() => settle(expand())} data-testid="divergent-expand">
                AI 扩展
              </Button>
            </Tooltip>
            <Button disabled={!active} onClick={() => settle(writeFrom())} data-testid="divergent-write">
              从此节点写作
            </Button>
            <Button type="primary" disabled={!ready} loading={save.isPending} onClick={() => save.mutate()} data-testid="divergent-save">
              保存
            </Button>
            <Button disabled={!ready} onClick={() => settle(mm.current?.export('png', true, rootText()))}>
              导出 PNG
            </Button>
            <Button disabled={!ready} onClick={() => settle(mm.current?.export('md', true, rootText()))}>
              导出 Markdown
            </Button>
            {mapId && <Tag color="blue">已保存的导图</Tag>}
          </Space>
          <div className="muted divergent-tip">单击选中节点，双击编辑文字，拖动节点调整位置；Tab 添加子节点，Delete 删除。</div>
          {loadError && <Alert type="error" showIcon title="导图组件加载失败，请刷新重试" />}
          {!ready && !loadError && <Spin className="divergent-spin" />}
          <div ref={holder} className="divergent-canvas" data-testid="divergent-canvas" />
        </section>
      </div>
    </PageFrame>
  );
}
