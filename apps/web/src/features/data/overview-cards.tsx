import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import type { DataOverview } from '@inkstone/shared';
import { fmtNum } from './format';

function Increase({ value }: { value: number }) {
  if (value === 0) return <span className="data-inc muted">持平</span>;
  const up = value > 0;
  return (
    <span className={`data-inc ${up ? 'data-inc-up' : 'data-inc-down'}`} data-testid="data-inc">
      {up ? <ArrowUpOutlined /> : <ArrowDownOutlined />} {fmtNum(Math.abs(value))}
    </span>
  );
}

/** The spec's publishData plus engagement: totals at the end of the range, increases over it. */
export function OverviewCards({ data }: { data: DataOverview }) {
  const cards = [
    { id: 'follow', label: '关注', count: data.followCount, inc: data.followIncrease },
    { id: 'read', label: '阅读', count: data.readCount, inc: data.readIncrease },
    { id: 'like', label: '点赞', count: data.likeCount, inc: data.likeIncrease },
    { id: 'collect', label: '收藏', count: data.collectCount, inc: data.collectIncrease },
    { id: 'comment', label: '评论', count: data.commentCount, inc: data.commentIncrease },
    { id: 'share', label: '分享', count: data.shareCount, inc: data.shareIncrease },
    { id: 'article', label: '发文', count: data.articleCount, inc: data.articleIncrease },
  ];
  return (
    <div className="data-cards" data-testid="data-overview">
      {cards.map((c) => (
        <div key={c.id} className="stat-card" data-testid={`data-card-${c.id}`}>
          <span className="muted">{c.label}</span>
          <strong data-testid="data-count">{fmtNum(c.count)}</strong>
          <Increase value={c.inc} />
        </div>
      ))}
    </div>
  );
}

/** Per-platform split of the totals. */
export function PlatformSplit({ rows }: { rows: DataOverview['byPlatform'] }) {
  if (!rows.length) return null;
  return (
    <div className="data-platforms" data-testid="data-platforms">
      {rows.map((p) => (
        <div key={p.platform} className="stat-card">
          <span className="muted">{p.platformName}</span>
          <div className="data-platform-figs">
            <span>关注 {fmtNum(p.followCount)}</span>
            <span>阅读 {fmtNum(p.readCount)}</span>
            <span>发文 {fmtNum(p.articleCount)}</span>
          </div>
        </div>
      ))}
    </div>
  );
}
