import { describe, expect, it } from 'vitest';
import { initialTaskState, loadSnapshot, reduceTaskEvent, saveSnapshot, streamUrl, type TaskEvent } from './task-stream';

const run = (events: TaskEvent[], s = initialTaskState('t1')) => events.reduce(reduceTaskEvent, s);

describe('reduceTaskEvent', () => {
  it('accumulates deltas, stages, title and ends on done', () => {
    const s = run([
      { id: 1, type: 'progress', data: { stage: 'plan', message: '规划', percent: 5 } },
      { id: 2, type: 'delta', data: { text: '# 标题\n' } },
      { id: 3, type: 'delta', data: { text: '正文' } },
      { id: 4, type: 'title', data: { title: '标题' } },
      { id: 5, type: 'done', data: { draftId: 9, title: '标题' } },
    ]);
    expect(s).toMatchObject({ status: 'done', text: '# 标题\n正文', title: '标题', draftId: 9, percent: 100, lastEventId: 5 });
    expect(s.stages).toEqual([{ stage: 'plan', message: '规划' }]);
  });

  it('ignores replayed events at or below lastEventId', () => {
    const s = run([
      { id: 1, type: 'delta', data: { text: 'a' } },
      { id: 2, type: 'delta', data: { text: 'b' } },
      { id: 2, type: 'delta', data: { text: 'b' } },
      { id: 1, type: 'delta', data: { text: 'a' } },
    ]);
    expect(s.text).toBe('ab');
  });

  it('reset drops the text so far; error records code, message and refund', () => {
    const s = run([
      { id: 1, type: 'delta', data: { text: '初稿' } },
      { id: 2, type: 'reset', data: { reason: 'revise' } },
      { id: 3, type: 'delta', data: { text: '修改稿' } },
      { id: 4, type: 'error', data: { code: 999, msg: '模型超时', refunded: true } },
      { id: 5, type: 'delta', data: { text: '之后' } },
    ]);
    expect(s.text).toBe('修改稿');
    expect(s.status).toBe('error');
    expect(s.error).toEqual({ code: 999, msg: '模型超时', refunded: true });
  });

  it('keeps sources and reasoning; tolerates malformed data', () => {
    const src = { n: 1, title: 'T', url: 'https://x', snippet: '', siteName: null };
    const s = run([
      { id: 1, type: 'reasoning', data: { text: '想' } },
      { id: 2, type: 'sources', data: { items: [src] } },
      { id: 3, type: 'delta', data: null },
      { id: 4, type: 'progress', data: { percent: 'x' } },
    ]);
    expect(s.reasoning).toBe('想');
    expect(s.sources).toEqual([src]);
    expect(s.text).toBe('');
    expect(s.lastEventId).toBe(4);
  });
});

describe('snapshot', () => {
  it('round-trips only for the same task', () => {
    const mem = new Map<string, string>();
    const storage = { setItem: (k: string, v: string) => void mem.set(k, v), getItem: (k: string) => mem.get(k) ?? null };
    const s = run([{ id: 7, type: 'delta', data: { text: 'x' } }]);
    saveSnapshot(s, storage);
    expect(loadSnapshot('t1', storage)).toMatchObject({ text: 'x', lastEventId: 7 });
    expect(loadSnapshot('other', storage)).toBeNull();
  });
  it('builds the stream URL with the stream ticket and lastEventId', () => {
    expect(streamUrl('a/b', 'tik', 0)).toBe('/api/mp/task/stream/a%2Fb?ticket=tik');
    expect(streamUrl('a', null, 12)).toBe('/api/mp/task/stream/a?lastEventId=12');
  });
});
