import { useState } from 'react';
import { Button, Popconfirm, Tooltip } from 'antd';
import { DeleteOutlined, LeftOutlined, PlusOutlined, RightOutlined } from '@ant-design/icons';
import { graphicLimits, type GraphicCard } from '@inkstone/shared';

interface Props {
  cards: GraphicCard[];
  current: number;
  busy: boolean;
  onSelect(index: number): void;
  /** The card ids in their new order. */
  onReorder(order: string[]): void;
  onAdd(): void;
  onRemove(index: number): void;
}

/** Moves the card at `from` to `to` (indexes in the list before the move). */
export function moveId(ids: string[], from: number, to: number): string[] {
  const next = [...ids];
  const [it] = next.splice(from, 1);
  next.splice(to, 0, it!);
  return next;
}

/** The cards as thumbnails: pick one, drag to reorder (or the arrow buttons), add after the picked one, remove it. */
export function CardStrip({ cards, current, busy, onSelect, onReorder, onAdd, onRemove }: Props) {
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const ids = cards.map((c) => c.id);
  const n = cards.length;
  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to >= n) return;
    onReorder(moveId(ids, from, to));
    onSelect(to);
  };

  return (
    <div className="card-strip-wrap">
      <div className="card-strip-head">
        <strong>
          图片（{n}/{graphicLimits.cardsMax}）
        </strong>
        <span className="muted small">拖动调整顺序</span>
        <span className="spacer" />
        <Tooltip title={current > 0 ? undefined : '已是第一张'}>
          <Button size="small" icon={<LeftOutlined />} aria-label="前移" disabled={busy || current <= 0} onClick={() => move(current, current - 1)} />
        </Tooltip>
        <Tooltip title={current < n - 1 ? undefined : '已是最后一张'}>
          <Button size="small" icon={<RightOutlined />} aria-label="后移" disabled={busy || current >= n - 1} onClick={() => move(current, current + 1)} />
        </Tooltip>
        <Tooltip title={n >= graphicLimits.cardsMax ? `最多${graphicLimits.cardsMax}张图片` : undefined}>
          <Button size="small" icon={<PlusOutlined />} disabled={busy || n >= graphicLimits.cardsMax} onClick={onAdd} data-testid="card-add">
            添加
          </Button>
        </Tooltip>
        <Popconfirm title="删除这张图片？" okText="删除" cancelText="取消" disabled={n <= graphicLimits.cardsMin} onConfirm={() => onRemove(current)}>
          <Tooltip title={n <= graphicLimits.cardsMin ? `至少保留${graphicLimits.cardsMin}张图片` : undefined}>
            <Button size="small" danger icon={<DeleteOutlined />} disabled={busy || n <= graphicLimits.cardsMin} data-testid="card-remove">
              删除
            </Button>
          </Tooltip>
        </Popconfirm>
      </div>
      <ol className="card-strip" data-testid="card-strip">
        {cards.map((c, i) => (
          <li
            key={c.id}
            className={`card-thumb${i === current ? ' active' : ''}${over === i && dragFrom !== null && dragFrom !== i ? ' drop' : ''}`}
            draggable={!busy}
            data-testid="card-thumb"
            data-card-id={c.id}
            onDragStart={(e) => {
              setDragFrom(i);
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', c.id);
            }}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(i);
            }}
            onDragLeave={() => setOver((o) => (o === i ? null : o))}
            onDrop={(e) => {
              e.preventDefault();
              const from = dragFrom ?? ids.indexOf(e.dataTransfer.getData('text/plain'));
              setDragFrom(null);
              setOver(null);
              if (from >= 0) move(from, i);
            }}
            onDragEnd={() => {
              setDragFrom(null);
              setOver(null);
            }}
          >
            <button type="button" className="card-thumb-btn" aria-label={`第${i + 1}张${i === 0 ? '（封面）' : ''}`} aria-current={i === current} onClick={() => onSelect(i)}>
              {c.imageUrl ? <img src={c.imageUrl} alt="" draggable={false} /> : <span className="muted small">生成中</span>}
              <span className="card-thumb-no">{i === 0 ? '封面' : i + 1}</span>
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
