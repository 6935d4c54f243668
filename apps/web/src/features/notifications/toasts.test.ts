import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** antd stands in as a recorder: the queue, its interval and the cap are the real ones of toasts.ts. */
const shown = vi.hoisted(() => ({ open: [] as { key: string; content: string; onClose?: () => void }[], destroyed: [] as string[] }));
vi.mock('antd', () => ({
  message: {
    config: () => {},
    open: (a: { key: string; content: string; onClose?: () => void }) => void shown.open.push(a),
    destroy: (key: string) => void shown.destroyed.push(key),
  },
}));

beforeEach(() => {
  vi.useFakeTimers();
  vi.resetModules();
  shown.open.length = 0;
  shown.destroyed.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

const texts = () => shown.open.map((a) => a.content);

describe('toasts (spec 4 and 9: one per second, at most 3 at once)', () => {
  it('the app toast shows one toast per second: the rest wait in the queue, first in first out', async () => {
    const { toast } = await import('./toasts');
    toast.message('error', 'a');
    toast.message('error', 'b');
    toast.message('warning', 'c');
    expect(texts()).toEqual(['a']);
    vi.advanceTimersByTime(999);
    expect(texts()).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(texts()).toEqual(['a', 'b']);
    vi.advanceTimersByTime(999);
    expect(texts()).toEqual(['a', 'b']);
    vi.advanceTimersByTime(1);
    expect(texts()).toEqual(['a', 'b', 'c']);
    // A toast asked for after a quiet second goes out at once.
    vi.advanceTimersByTime(5_000);
    toast.message('info', 'd');
    expect(texts()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a fourth toast on screen closes the oldest; a toast that closed by itself frees its place', async () => {
    const { toast } = await import('./toasts');
    for (const t of ['a', 'b', 'c', 'd']) {
      toast.message('error', t, 30);
      vi.advanceTimersByTime(1_000);
    }
    expect(texts()).toEqual(['a', 'b', 'c', 'd']);
    expect(shown.destroyed).toEqual([shown.open[0]!.key]);
    // 'b' closes on its own: 'c', 'd' and a new 'e' fit without closing anything.
    shown.open[1]!.onClose?.();
    toast.message('error', 'e', 30);
    expect(shown.destroyed).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    toast.message('error', 'f', 30);
    expect(shown.destroyed).toEqual([shown.open[0]!.key, shown.open[2]!.key]);
  });
});
