import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorCode } from '@inkstone/shared';
import { graphicApi, type GraphicCreateBody } from '../../api/graphic';
import { isApiError } from '../../api/request';
import { toast } from '../notifications/toasts';

/** Options of a graphic task kept in the home input's `graphicModelConfig` (saved with the 图文 box only). */
export interface GraphicModelConfig {
  contentCards: number | null;
  pictureMode: 'card' | 'ai';
}

export function readGraphicConfig(v: unknown): GraphicModelConfig {
  const o = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  const n = typeof o.contentCards === 'number' && o.contentCards >= 2 && o.contentCards <= 17 ? Math.round(o.contentCards) : null;
  return { contentCards: n, pictureMode: o.pictureMode === 'ai' ? 'ai' : 'card' };
}

export const xhsEditorPath = (taskId: string) => `/xhsEditor?taskId=${encodeURIComponent(taskId)}`;

/**
 * Starting a graphic task from the home box: creates it, then its stream is shown where the box is (`taskId`) and,
 * once done, the note opens in /xhsEditor.
 */
export function useGraphicStart() {
  const navigate = useNavigate();
  const [starting, setStarting] = useState(false);
  const [taskId, setTaskId] = useState<string | null>(null);

  const start = async (body: GraphicCreateBody) => {
    setStarting(true);
    try {
      const created = await graphicApi.createTask(body);
      setTaskId(created.taskId);
    } catch (e) {
      if (isApiError(e) && e.kind === 'code') {
        if (e.code === ErrorCode.SENSITIVE_CONTENT) toast.message('warning', '描述词存在敏感内容', 3);
        else if (e.code !== ErrorCode.POINTS_INSUFFICIENT && e.code !== 401 && e.code !== 430) toast.message('error', e.message || '创建图文任务失败', 3);
      } else if (isApiError(e) && e.kind !== 'cancel') toast.message('error', e.message, 3);
    } finally {
      setStarting(false);
    }
  };

  return {
    starting: starting || taskId !== null,
    taskId,
    start,
    /** The stream finished: open the editor. */
    open: () => taskId && void navigate(xhsEditorPath(taskId)),
    /** A failed task: the box can start again. */
    dismiss: () => setTaskId(null),
  };
}
