import type { SearchSource, TaskEventType } from '@inkstone/shared';

/** What the page knows about one streamed task (article or ability), built only from its SSE events. */
export interface TaskStreamState {
  taskId: string;
  status: 'connecting' | 'streaming' | 'done' | 'error';
  text: string;
  reasoning: string;
  title: string;
  stage: string | null;
  message: string;
  percent: number;
  /** Every progress message so far, oldest first, so the stages can be listed. */
  stages: { stage: string; message: string }[];
  sources: SearchSource[];
  usage: { promptTokens: number; completionTokens: number; totalTokens: number } | null;
  draftId: number | null;
  error: { code: number; msg: string; refunded: boolean } | null;
  lastEventId: number;
}

export interface TaskEvent {
  id: number;
  type: TaskEventType;
  data: unknown;
}

export function initialTaskState(taskId: string): TaskStreamState {
  return {
    taskId,
    status: 'connecting',
    text: '',
    reasoning: '',
    title: '',
    stage: null,
    message: '',
    percent: 0,
    stages: [],
    sources: [],
    usage: null,
    draftId: null,
    error: null,
    lastEventId: 0,
  };
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown, d = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : d);

/**
 * Folds one event into the state. Events at or below lastEventId are ignored: EventSource replays
 * after a reconnect, and a resumed page must not append the same delta twice.
 */
export function reduceTaskEvent(s: TaskStreamState, e: TaskEvent): TaskStreamState {
  if (e.id > 0 && e.id <= s.lastEventId) return s;
  if (s.status === 'done' || s.status === 'error') return s;
  const d = obj(e.data);
  const next: TaskStreamState = { ...s, lastEventId: e.id > 0 ? e.id : s.lastEventId, status: 'streaming' };
  switch (e.type) {
    case 'progress': {
      const stage = str(d.stage);
      const message = str(d.message);
      const last = s.stages.at(-1);
      const stages = last && last.stage === stage && last.message === message ? s.stages : [...s.stages, { stage, message }];
      return { ...next, stage, message, percent: Math.max(0, Math.min(100, num(d.percent, s.percent))), stages };
    }
    case 'reasoning':
      return { ...next, reasoning: s.reasoning + str(d.text) };
    case 'delta':
      return { ...next, text: s.text + str(d.text) };
    case 'reset':
      // The writer revises: what streamed so far is replaced by what follows.
      return { ...next, text: '' };
    case 'title':
      return { ...next, title: str(d.title) };
    case 'sources':
      return { ...next, sources: Array.isArray(d.items) ? (d.items as SearchSource[]) : [] };
    case 'usage':
      return { ...next, usage: { promptTokens: num(d.promptTokens), completionTokens: num(d.completionTokens), totalTokens: num(d.totalTokens) } };
    case 'done':
      return {
        ...next,
        status: 'done',
        percent: 100,
        draftId: typeof d.draftId === 'number' ? d.draftId : null,
        title: str(d.title) || s.title,
      };
    case 'error':
      return { ...next, status: 'error', error: { code: num(d.code, 999), msg: str(d.msg) || '写作失败', refunded: d.refunded === true } };
    default:
      return next;
  }
}

export const isTerminal = (s: TaskStreamState) => s.status === 'done' || s.status === 'error';

// ---- persistence: a reload mid-stream resumes from the last event it had ----

const SNAPSHOT_KEY = 'writing:stream';

export function saveSnapshot(s: TaskStreamState, storage: Pick<Storage, 'setItem'> = sessionStorage): void {
  try {
    storage.setItem(SNAPSHOT_KEY, JSON.stringify(s));
  } catch {
    // Quota or private mode: a reload then replays the stream from the start instead.
  }
}

/** The snapshot of this task, if the tab has one; the text and lastEventId were saved together, so they agree. */
export function loadSnapshot(taskId: string, storage: Pick<Storage, 'getItem'> = sessionStorage): TaskStreamState | null {
  try {
    const raw = storage.getItem(SNAPSHOT_KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as TaskStreamState;
    return s && s.taskId === taskId && typeof s.lastEventId === 'number' && typeof s.text === 'string' ? s : null;
  } catch {
    return null;
  }
}

export function clearSnapshot(storage: Pick<Storage, 'removeItem'> = sessionStorage): void {
  try {
    storage.removeItem(SNAPSHOT_KEY);
  } catch {
    // see saveSnapshot
  }
}

/** The session token never goes in a URL; the stream is opened with a short-lived ticket for this task. */
export function streamUrl(taskId: string, ticket: string | null, lastEventId: number): string {
  const q = new URLSearchParams();
  if (ticket) q.set('ticket', ticket);
  if (lastEventId > 0) q.set('lastEventId', String(lastEventId));
  const qs = q.toString();
  return `/api/mp/task/stream/${encodeURIComponent(taskId)}${qs ? `?${qs}` : ''}`;
}
