import { lazy, Suspense, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Drawer, Empty, Input, List, Segmented, Select, Skeleton, Space, Tabs, Tag, Tooltip } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { anglePlatforms, formatTimeAgo, type AnglePlatform, type TopicAngle, type TopicItem } from '@inkstone/shared';
import { PageFrame } from '../../components/page-frame';
import { topicApi, type TopicAngles } from '../../api/topic';
import { useIsLogin } from '../../stores/global';
import { useTrackStore } from '../../stores/track';
import { toast } from '../../features/notifications/toasts';
import { selectedPersonaId, writeThis } from '../../features/topic/write-this';
import { formatHeat } from '../../features/topic/format';
import './topic.css';
import { queryKeys } from '../../api/query-keys';
import { settle } from '../../api/request';

const TrackPicker = lazy(() => import('./track-picker'));
const FestivalCalendar = lazy(() => import('./festival-calendar'));

const PAGE_SIZE = 20;
const ALL = '__all__';
const platformLabels: Record<AnglePlatform, string> = {
  xiaohongshu: '小红书',
  wechat_mp: '公众号',
  douyin: '抖音',
  weibo: '微博',
  zhihu: '知乎',
  toutiao: '头条',
  bilibili: 'B站',
};

function TrendMark({ trend }: { trend: TopicItem['trend'] }) {
  if (trend === 'up') return <ArrowUpOutlined className="topic-trend up" aria-label="上升" />;
  if (trend === 'down') return <ArrowDownOutlined className="topic-trend down" aria-label="下降" />;
  if (trend === 'new')
    return (
      <Tag color="red" className="topic-new">
        新
      </Tag>
    );
  return null;
}

function CollectButton({ item, onChanged }: { item: Pick<TopicItem, 'id' | 'collected'>; onChanged: () => void }) {
  const m = useMutation({
    mutationFn: () => (item.collected ? topicApi.uncollect(item.id) : topicApi.collect(item.id)),
    onSuccess: (r) => {
      toast.message('success', r.collected ? '已收藏' : '已取消收藏', 2);
      onChanged();
    },
  });
  return (
    <Tooltip title={item.collected ? '取消收藏' : '收藏'}>
      <Button
        type="text"
        size="small"
        aria-label={item.collected ? '取消收藏' : '收藏'}
        data-testid={`topic-collect-${item.id}`}
        loading={m.isPending}
        icon={item.collected ? <StarFilled style={{ color: '#faad14' }} /> : <StarOutlined />}
        onClick={(e) => {
          e.stopPropagation();
          m.mutate();
        }}
      />
    </Tooltip>
  );
}

function TopicRow({ item, index, onOpen, onChanged }: { item: TopicItem; index: number; onOpen: () => void; onChanged: () => void }) {
  return (
    <List.Item className="topic-row" data-testid="topic-row" onClick={onOpen} actions={[<CollectButton key="c" item={item} onChanged={onChanged} />]}>
      <span className={`topic-rank${index < 3 ? ' top' : ''}`}>{index + 1}</span>
      <div className="topic-main">
        <div className="topic-title">
          <a onClick={(e) => (e.preventDefault(), onOpen())} href="#" data-testid="topic-title">
            {item.title}
          </a>
          <TrendMark trend={item.trend} />
        </div>
        <div className="topic-meta muted">
          {item.sources.map((s) => (
            <Tag key={s.source} bordered={false}>
              {s.sourceName}
            </Tag>
          ))}
          {item.heat > 0 && <span>热度 {formatHeat(item.heat)}</span>}
          <span>{formatTimeAgo(item.publishedAt ?? item.firstSeenAt)}</span>
          {item.tracks.slice(0, 3).map((t) => (
            <Tag key={t} color="blue" bordered={false}>
              {t}
            </Tag>
          ))}
        </div>
      </div>
    </List.Item>
  );
}

function AnglesPanel({ subject, topicId, onWrite }: { subject: string; topicId?: number; onWrite: (a: TopicAngle | null) => void }) {
  const [platform, setPlatform] = useState<AnglePlatform>('xiaohongshu');
  const [result, setResult] = useState<TopicAngles | null>(null);
  const gen = useMutation({
    mutationFn: () => topicApi.angles({ ...(topicId ? { topicId } : { keyword: subject }), platform, count: 6, requestId: crypto.randomUUID(), personaId: selectedPersonaId() }),
    onSuccess: setResult,
  });
  return (
    <div className="topic-angles" data-testid="topic-angles">
      <Space wrap>
        <Select<AnglePlatform>
          value={platform}
          onChange={setPlatform}
          options={anglePlatforms.map((p) => ({ value: p, label: platformLabels[p] }))}
          style={{ width: 120 }}
          aria-label="平台"
        />
        <Button type="primary" onClick={() => gen.mutate()} loading={gen.isPending} data-testid="topic-angles-generate">
          生成写作角度
        </Button>
      </Space>
      {gen.isError && <Alert type="error" showIcon className="topic-gap" title="生成失败，请稍后再试" />}
      {result && (
        <>
          <div className="topic-gap muted" data-testid="topic-angles-label">
            {result.isAi
              ? `AI 生成 · ${platformLabels[result.platform]}${result.pointsCharged ? ` · 消耗${result.pointsCharged}积分` : ''}`
              : '模板角度（离线写作助手生成，非 AI）'}
          </div>
          <List
            dataSource={result.angles}
            renderItem={(a) => (
              <List.Item
                data-testid="topic-angle"
                actions={[
                  <Button key="w" size="small" onClick={() => onWrite(a)}>
                    写这个
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  title={
                    <>
                      <Tag>{a.angle}</Tag>
                      {a.title}
                    </>
                  }
                  description={a.hook}
                />
              </List.Item>
            )}
          />
        </>
      )}
    </div>
  );
}

function TopicDrawer({ id, onClose, onChanged }: { id: number | null; onClose: () => void; onChanged: () => void }) {
  const navigate = useNavigate();
  const detail = useQuery({ queryKey: queryKeys.topic.detail(id), queryFn: () => topicApi.detail(id!), enabled: id !== null, retry: false });
  const t = detail.data;
  const write = async (angle: TopicAngle | null, type: 'article' | 'graphic' = 'article') => {
    if (!t) return;
    await writeThis(type, t, angle);
    navigate('/');
  };
  return (
    <Drawer open={id !== null} onClose={onClose} title="选题详情" size="large" destroyOnHidden data-testid="topic-drawer">
      {detail.isLoading && <Skeleton active />}
      {detail.isError && <Alert type="error" showIcon title="选题不存在或已过期" />}
      {t && (
        <>
          <h3 className="topic-drawer-title">
            {t.title} <TrendMark trend={t.trend} />
          </h3>
          {t.summary && <p>{t.summary}</p>}
          <div className="muted topic-gap">
            {t.heat > 0 && <span>热度 {formatHeat(t.heat)} · </span>}
            首次发现 {formatTimeAgo(t.firstSeenAt)}
            {t.snapshot && <Tag className="topic-gap-left">内置快照，非实时</Tag>}
          </div>
          <div className="topic-gap">
            <b>来源</b>
            <ul className="topic-sources">
              {t.sources.map((s) => (
                <li key={s.source}>
                  <a href={s.url} target="_blank" rel="noopener noreferrer nofollow">
                    {s.sourceName}
                  </a>
                  {s.rank ? <span className="muted"> · 第{s.rank}名</span> : null}
                  {s.heat ? <span className="muted"> · {formatHeat(s.heat)}</span> : null}
                </li>
              ))}
            </ul>
          </div>
          <Space className="topic-gap">
            <CollectButton item={t} onChanged={() => (void detail.refetch(), onChanged())} />
            <Button type="primary" onClick={() => settle(write(null))} data-testid="topic-write">
              写这个（文章）
            </Button>
            <Button onClick={() => settle(write(null, 'graphic'))}>写成图文</Button>
          </Space>
          <AnglesPanel subject={t.title} topicId={t.id} onWrite={(a) => settle(write(a))} />
        </>
      )}
    </Drawer>
  );
}

function HotList({ track, keyword, onOpen }: { track: string; keyword: string; onOpen: (id: number) => void }) {
  const [pageNum, setPageNum] = useState(1);
  const [source, setSource] = useState('');
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: queryKeys.topic.hot(track, keyword, source, pageNum),
    queryFn: () => topicApi.hot({ pageNum, pageSize: PAGE_SIZE, ...(track !== ALL ? { track } : {}), ...(keyword ? { keyword } : {}), ...(source ? { source } : {}) }),
    retry: false,
    placeholderData: (prev) => prev,
  });
  const changed = () => {
    qc.invalidateQueries({ queryKey: queryKeys.topic.hotAll });
  };
  if (q.isLoading) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (q.isError)
    return (
      <Alert
        type="error"
        showIcon
        title="热点加载失败"
        action={
          <Button size="small" onClick={() => q.refetch()}>
            重试
          </Button>
        }
      />
    );
  const page = q.data!;
  const failed = page.sources.filter((s) => s.ok === false);
  return (
    <>
      {page.snapshotDate && (
        <Alert
          type="info"
          showIcon
          className="topic-gap"
          data-testid="topic-snapshot"
          title={`当前为内置快照（${page.snapshotDate}），不是实时热点`}
          description="管理员配置 TRENDS_SOURCES 后，将接入微博热搜、知乎热榜、百度热搜、头条热榜、B站热门和 RSS 订阅源。"
        />
      )}
      {page.sources.length > 1 && (
        <Select
          value={source}
          onChange={(v) => {
            setSource(v);
            setPageNum(1);
          }}
          options={[{ value: '', label: '全部来源' }, ...page.sources.map((x) => ({ value: x.source, label: x.sourceName }))]}
          className="topic-source-filter"
          aria-label="来源"
          data-testid="topic-source-filter"
        />
      )}
      {failed.length > 0 && <Alert type="warning" showIcon className="topic-gap" title={`部分来源暂时无法获取：${failed.map((s) => s.sourceName).join('、')}`} />}
      <List
        dataSource={page.records}
        locale={{ emptyText: <Empty description={keyword ? '没有找到相关热点' : '这个赛道暂时没有热点'} /> }}
        pagination={page.total > PAGE_SIZE ? { current: pageNum, pageSize: PAGE_SIZE, total: page.total, onChange: setPageNum, showSizeChanger: false } : false}
        renderItem={(item, i) => <TopicRow item={item} index={(pageNum - 1) * PAGE_SIZE + i} onOpen={() => onOpen(item.id)} onChanged={changed} />}
      />
    </>
  );
}

function Collections({ onOpen }: { onOpen: (id: number) => void }) {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: queryKeys.topic.collections, queryFn: () => topicApi.collections({ pageNum: 1, pageSize: 100 }), retry: false });
  if (q.isLoading) return <Skeleton active />;
  if (q.isError)
    return (
      <Alert
        type="error"
        showIcon
        title="收藏加载失败"
        action={
          <Button size="small" onClick={() => q.refetch()}>
            重试
          </Button>
        }
      />
    );
  return (
    <List
      data-testid="topic-collections"
      dataSource={q.data!.records}
      locale={{ emptyText: <Empty description="还没有收藏的选题" /> }}
      renderItem={(item, i) => <TopicRow item={item} index={i} onOpen={() => onOpen(item.id)} onChanged={() => qc.invalidateQueries({ queryKey: queryKeys.topic.collections })} />}
    />
  );
}

export default function TopicPage() {
  const isLogin = useIsLogin();
  const navigate = useNavigate();
  const sysTrack = useTrackStore((s) => s.sysTrack);
  const userTrack = useTrackStore((s) => s.userTrack);
  const [view, setView] = useState<'hot' | 'collect' | 'calendar'>('hot');
  const [track, setTrack] = useState(ALL);
  const [keyword, setKeyword] = useState('');
  const [openId, setOpenId] = useState<number | null>(null);
  const [picking, setPicking] = useState(false);
  const qc = useQueryClient();
  const tabs = useMemo(() => [{ key: ALL, label: '全部热点' }, ...[...sysTrack, ...userTrack].map((t) => ({ key: t, label: t }))], [sysTrack, userTrack]);

  if (isLogin !== true) {
    return (
      <PageFrame testId="page-topic" title="选题追踪">
        <Empty description="登录后查看你关注赛道的热点选题" />
      </PageFrame>
    );
  }
  return (
    <PageFrame
      testId="page-topic"
      title="选题追踪"
      extra={
        <Space>
          <Button onClick={() => navigate('/divergent')}>发散导图</Button>
          <Button onClick={() => setPicking(true)} data-testid="topic-pick-tracks">
            管理赛道
          </Button>
        </Space>
      }
    >
      <Segmented
        value={view}
        onChange={(v) => setView(v as typeof view)}
        options={[
          { value: 'hot', label: '热点' },
          { value: 'collect', label: '我的收藏' },
          { value: 'calendar', label: '节日日历' },
        ]}
        data-testid="topic-view"
      />
      {view === 'hot' && (
        <div className="topic-gap">
          {sysTrack.length + userTrack.length === 0 && (
            <Alert
              type="info"
              showIcon
              className="topic-gap"
              title="还没有选择赛道"
              description="选择你关注的赛道，热点会按赛道分组。"
              action={
                <Button size="small" type="primary" onClick={() => setPicking(true)}>
                  选择赛道
                </Button>
              }
            />
          )}
          <Input.Search allowClear placeholder="搜索热点关键词" onSearch={(v) => setKeyword(v.trim())} className="topic-search" data-testid="topic-search" maxLength={50} />
          <Tabs activeKey={track} onChange={setTrack} items={tabs} data-testid="topic-tabs" />
          <HotList key={`${track}|${keyword}`} track={track} keyword={keyword} onOpen={setOpenId} />
          {keyword && (
            <div className="topic-gap">
              <AnglesPanel subject={keyword} onWrite={(a) => settle(writeThis('article', { title: keyword }, a).then(() => navigate('/')))} />
            </div>
          )}
        </div>
      )}
      {view === 'collect' && (
        <div className="topic-gap">
          <Collections onOpen={setOpenId} />
        </div>
      )}
      {view === 'calendar' && (
        <Suspense fallback={<Skeleton active />}>
          <FestivalCalendar onWrite={(title) => settle(writeThis('article', { title }).then(() => navigate('/')))} />
        </Suspense>
      )}
      <TopicDrawer
        id={openId}
        onClose={() => setOpenId(null)}
        onChanged={() => {
          qc.invalidateQueries({ queryKey: queryKeys.topic.hotAll });
          qc.invalidateQueries({ queryKey: queryKeys.topic.collections });
        }}
      />
      {picking && (
        <Suspense fallback={null}>
          <TrackPicker open={picking} onClose={() => setPicking(false)} />
        </Suspense>
      )}
    </PageFrame>
  );
}
