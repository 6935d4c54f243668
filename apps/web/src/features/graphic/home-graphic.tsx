import { Button, InputNumber, Segmented, Tooltip } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { graphicLimits } from '@inkstone/shared';
import { graphicApi } from '../../api/graphic';
import { queryKeys } from '../../api/query-keys';
import { GraphicStream } from './graphic-stream';
import './graphic.css';
import type { GraphicModelConfig } from './use-graphic-start';

interface Props {
  loggedIn: boolean;
  config: GraphicModelConfig;
  onConfig(c: GraphicModelConfig): void;
  /** The graphic task being generated from this box, if any. */
  taskId: string | null;
  onDone(): void;
  onDismiss(): void;
}

/** The 图文 box's own options (how many cards, card or AI pictures) and, once started, the task's progress. */
export function HomeGraphic({ loggedIn, config, onConfig, taskId, onDone, onDismiss }: Props) {
  const imagegen = useQuery({ queryKey: queryKeys.graphic.imagegen, queryFn: graphicApi.imagegenStatus, enabled: loggedIn, staleTime: 600_000 });
  const aiOn = imagegen.data?.enabled === true;
  if (taskId)
    return (
      <div className="home-graphic" data-testid="home-graphic-progress">
        <GraphicStream taskId={taskId} onDone={onDone} />
        <Button size="small" onClick={onDismiss}>
          返回输入
        </Button>
      </div>
    );
  return (
    <div className="graphic-options" data-testid="graphic-options">
      <span>
        内容卡片{' '}
        <InputNumber
          aria-label="内容卡片数量"
          size="small"
          min={graphicLimits.planContentMin}
          max={graphicLimits.planContentMax}
          placeholder="自动"
          value={config.contentCards}
          onChange={(v) => onConfig({ ...config, contentCards: typeof v === 'number' ? v : null })}
        />{' '}
        张（另加封面）
      </span>
      <Tooltip title={aiOn ? `AI配图每张 ${imagegen.data?.pointsPerImage ?? 0} 积分` : (imagegen.data?.reason ?? (loggedIn ? 'AI配图未开启' : '登录后可用'))}>
        <Segmented<'card' | 'ai'>
          aria-label="配图方式"
          size="small"
          value={aiOn ? config.pictureMode : 'card'}
          onChange={(v) => onConfig({ ...config, pictureMode: v })}
          options={[
            { value: 'card', label: '文字卡片' },
            { value: 'ai', label: 'AI配图', disabled: !aiOn },
          ]}
        />
      </Tooltip>
    </div>
  );
}
