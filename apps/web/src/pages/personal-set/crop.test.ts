import { describe, expect, it } from 'vitest';
import { cropRect, dndActive, dndUntil } from './crop';

describe('avatar crop', () => {
  it('takes the centred square of the short side at zoom 1', () => {
    expect(cropRect(400, 200, 1, 0, 0)).toEqual({ sx: 100, sy: 0, size: 200 });
    expect(cropRect(200, 400, 1, 0, 0)).toEqual({ sx: 0, sy: 100, size: 200 });
  });
  it('zooms in and slides to the edges without leaving the image', () => {
    expect(cropRect(400, 400, 2, 0, 0)).toEqual({ sx: 100, sy: 100, size: 200 });
    expect(cropRect(400, 400, 2, -1, 1)).toEqual({ sx: 0, sy: 200, size: 200 });
    const far = cropRect(400, 300, 4, 5, -5);
    expect(far.sx + far.size).toBeLessThanOrEqual(400);
    expect(far.sy).toBe(0);
  });
  it('treats nonsense zoom as 1', () => {
    expect(cropRect(100, 100, 0.2, 0, 0).size).toBe(100);
    expect(cropRect(100, 100, Number.NaN, Number.NaN, 0)).toEqual({ sx: 0, sy: 0, size: 100 });
  });
});

describe('do not disturb', () => {
  const now = new Date(2026, 10, 23, 22, 30);
  it('turns a choice into the stored value', () => {
    expect(dndUntil('off', now)).toBe('0');
    expect(Number(dndUntil('1h', now)) - now.getTime()).toBe(3_600_000);
    const tomorrow = new Date(Number(dndUntil('tomorrow', now)));
    expect([tomorrow.getDate(), tomorrow.getHours(), tomorrow.getMinutes()]).toEqual([24, 8, 0]);
  });
  it('is active only until its time', () => {
    expect(dndActive('0', now.getTime())).toBe(false);
    expect(dndActive(String(now.getTime() + 1000), now.getTime())).toBe(true);
    expect(dndActive(String(now.getTime() - 1), now.getTime())).toBe(false);
  });
});
