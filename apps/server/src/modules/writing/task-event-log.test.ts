import { describe, expect, it } from 'vitest';
import { TaskEventLog } from './task-event-log.js';

const ev = (id: number, text = 'x') => ({ id, type: 'delta', data: { text } });

describe('TaskEventLog', () => {
  it('pages what was stored after an id, for the owner only', () => {
    const log = new TaskEventLog();
    log.start('t', 7, [{ id: 3, type: 'progress', data: { stage: 'queued' } }]);
    log.stored('t', { after: 3, events: [ev(5), ev(6)] });
    log.stored('t', { after: 6, events: [ev(9)] });
    expect(log.page('t', 7, 0, 500)).toEqual([{ id: 3, type: 'progress', data: { stage: 'queued' } }, ev(5), ev(6), ev(9)]);
    expect(log.page('t', 7, 5, 500)).toEqual([ev(6), ev(9)]);
    expect(log.page('t', 7, 5, 1)).toEqual([ev(6)]);
    expect(log.page('t', 7, 9, 500)).toEqual([]);
    expect(log.page('t', 8, 0, 500)).toBe('not-owner');
    expect(log.page('other', 7, 0, 500)).toBeNull();
  });

  it('drops a log at the first doubt: a gap, a signal without its batch, too much text, the end of the run', () => {
    const log = new TaskEventLog();
    const started = (id: string) => log.start(id, 1, [ev(1)]);
    started('gap');
    log.stored('gap', { after: 2, events: [ev(3)] });
    expect(log.page('gap', 1, 0, 500)).toBeNull();

    started('bare');
    log.stored('bare');
    expect(log.page('bare', 1, 0, 500)).toBeNull();

    started('long');
    log.stored('long', { after: 1, events: [ev(2, 'x'.repeat(200_000))] });
    expect(log.page('long', 1, 0, 500)).toHaveLength(2);
    log.stored('long', { after: 2, events: [ev(3, 'x'.repeat(60_000))] });
    expect(log.page('long', 1, 0, 500)).toBeNull();

    started('ended');
    log.end('ended');
    expect(log.page('ended', 1, 0, 500)).toBeNull();
    // A batch for a task with no log starts none.
    log.stored('ended', { after: 1, events: [ev(2)] });
    expect(log.page('ended', 1, 0, 500)).toBeNull();
  });
});
