import { useEffect, useRef } from 'react';
import { Alert, Progress } from 'antd';
import { useTaskStream } from '../writing/use-task-stream';

/**
 * A graphic task's progress from its resumable stream (planning, search, each card rendered). `onDone` runs once when
 * the task finishes; a failure stays on screen with whether the points were refunded.
 */
export function GraphicStream({ taskId, onDone }: { taskId: string; onDone(): void }) {
  const stream = useTaskStream(taskId);
  const done = stream?.status === 'done';
  // Only the transition to done matters, not a new onDone identity on each render of the caller.
  const latest = useRef(onDone);
  useEffect(() => {
    latest.current = onDone;
  });
  useEffect(() => {
    if (done) latest.current();
  }, [done]);
  if (!stream) return null;
  if (stream.status === 'error' && stream.error)
    return (
      <Alert
        type="error"
        showIcon
        data-testid="graphic-stream-error"
        title={stream.error.msg || '图文生成失败'}
        description={stream.error.refunded ? '本次积分已退还' : undefined}
      />
    );
  return (
    <div className="graphic-stream" data-testid="graphic-stream" aria-live="polite">
      <Progress percent={stream.percent} size="small" status={done ? 'success' : 'active'} />
      <p className="muted">{stream.status === 'connecting' ? '正在连接…' : stream.message || '正在生成图文…'}</p>
      {stream.stages.length > 1 ? (
        <ol className="graphic-stages">
          {stream.stages.slice(0, -1).map((s, i) => (
            <li key={`${i}-${s.stage}`} className="muted small">
              {s.message}
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
