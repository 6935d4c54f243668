import { useRef } from 'react';
import { Button, Empty, Tag } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import type { GraphicCard } from '@inkstone/shared';

interface Props {
  cards: GraphicCard[];
  current: number;
  onChange(index: number): void;
  title: string;
  body: string;
  tags: string[];
}

const SWIPE_PX = 40;

/**
 * The carousel's shape, as the app shows it: the first picture's ratio (3:4, 1:1 or 4:3); pictures of another shape
 * are shown whole inside it, never cropped.
 */
export function previewAspect(cards: Pick<GraphicCard, 'width' | 'height'>[]): string {
  const first = cards[0];
  return first && first.width > 0 && first.height > 0 ? `${first.width} / ${first.height}` : '3 / 4';
}

/**
 * The note as the app shows it: the cards at the first one's shape on a phone-sized screen, swiped (pointer drag), stepped with the arrows or
 * the arrow keys, with dots; the title, body and topics below.
 */
export function PhonePreview({ cards, current, onChange, title, body, tags }: Props) {
  const startX = useRef<number | null>(null);
  const n = cards.length;
  const at = Math.min(current, Math.max(0, n - 1));
  const go = (i: number) => n && onChange((i + n) % n);

  return (
    <div className="phone" data-testid="phone-preview">
      <div
        className="phone-cards"
        style={{ aspectRatio: previewAspect(cards) }}
        data-aspect={previewAspect(cards)}
        role="region"
        aria-roledescription="轮播"
        aria-label={`图片 ${n ? at + 1 : 0}/${n}，左右方向键切换`}
        tabIndex={0}
        onKeyDown={(e) => {
          if (e.key === 'ArrowLeft') go(at - 1);
          else if (e.key === 'ArrowRight') go(at + 1);
          else return;
          e.preventDefault();
        }}
        onPointerDown={(e) => {
          startX.current = e.clientX;
        }}
        onPointerUp={(e) => {
          if (startX.current === null) return;
          const dx = e.clientX - startX.current;
          startX.current = null;
          if (Math.abs(dx) >= SWIPE_PX) go(dx < 0 ? at + 1 : at - 1);
        }}
      >
        {n ? (
          <div className="phone-track" style={{ transform: `translateX(-${at * 100}%)` }}>
            {cards.map((c, i) => (
              <div className="phone-slide" key={c.id} aria-hidden={i !== at}>
                {c.imageUrl ? (
                  <img src={c.imageUrl} alt={`第${i + 1}张`} draggable={false} data-testid="preview-image" data-size={`${c.width}x${c.height}`} />
                ) : (
                  <div className="phone-pending">生成中…</div>
                )}
              </div>
            ))}
          </div>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有图片" />
        )}
        {n > 1 ? (
          <>
            <Button className="phone-arrow left" shape="circle" size="small" icon={<LeftOutlined />} aria-label="上一张" onClick={() => go(at - 1)} />
            <Button className="phone-arrow right" shape="circle" size="small" icon={<RightOutlined />} aria-label="下一张" onClick={() => go(at + 1)} />
            <span className="phone-count" data-testid="preview-count">
              {at + 1}/{n}
            </span>
          </>
        ) : null}
      </div>
      {n > 1 ? (
        <div className="phone-dots" aria-hidden>
          {cards.map((c, i) => (
            <span key={c.id} className={i === at ? 'on' : ''} />
          ))}
        </div>
      ) : null}
      <div className="phone-note">
        <h4 data-testid="preview-title">{title || '（无标题）'}</h4>
        <p className="phone-body">{body}</p>
        {tags.length ? (
          <div>
            {tags.map((t) => (
              <Tag key={t} bordered={false} color="blue">
                #{t}
              </Tag>
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
}
