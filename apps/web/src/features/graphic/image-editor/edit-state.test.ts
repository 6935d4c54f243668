import { describe, expect, it } from 'vitest';
import { centreFor, commit, coverFit, initialDoc, newShape, panFor, redo, startHistory, undo } from './edit-state';

describe('image editor history', () => {
  it('undoes and redoes steps in order; a new change drops the redo list; an unchanged doc is not a step', () => {
    let h = startHistory();
    h = commit(h, { ...h.present, crop: '1:1' });
    h = commit(h, { ...h.present, rotation: 90 });
    expect(commit(h, { ...h.present })).toBe(h);
    h = undo(h);
    expect(h.present).toMatchObject({ crop: '1:1', rotation: 0 });
    h = redo(h);
    expect(h.present.rotation).toBe(90);
    h = undo(undo(h));
    expect(h.present).toEqual(initialDoc());
    expect(undo(h)).toBe(h);
    h = commit(h, { ...h.present, brightness: 0.2 });
    expect(h.future).toEqual([]);
    expect(redo(h)).toBe(h);
  });
});

describe('cover fit', () => {
  it('scales a landscape picture to cover a 3:4 frame and keeps the centre where no edge shows', () => {
    const fit = coverFit(2000, 1000, 0, 1080, 1440);
    expect(fit.scale).toBeCloseTo(1.44);
    expect(fit.minX).toBeCloseTo(1080 - 1440);
    expect(fit.maxX).toBeCloseTo(1440);
    expect(centreFor({ panX: 0, panY: 0.5, rotation: 0, crop: '3:4' }, 2000, 1000)).toMatchObject({ x: -360, y: 720 });
    expect(centreFor({ panX: 0.5, panY: 0.5, rotation: 0, crop: '3:4' }, 2000, 1000)).toMatchObject({ x: 540, y: 720 });
    // dragged past the edge: held where the frame is still covered
    expect(panFor({ rotation: 0, crop: '3:4' }, 2000, 1000, 5000, 720)).toEqual({ panX: 1, panY: 0.5 });
  });

  it('swaps the sides of a picture turned a quarter', () => {
    expect(coverFit(2000, 1000, 90, 1080, 1080).scale).toBeCloseTo(1.08);
    expect(coverFit(2000, 1000, 180, 1080, 1080).scale).toBeCloseTo(1.08 * 1);
  });
});

describe('shape stickers', () => {
  it('a new shape sits centred in the frame (lines and arrows flat), and adding, moving and removing shapes undo and redo', () => {
    const frame = { width: 1080, height: 1080 };
    expect(newShape('rect', 'a', frame)).toMatchObject({ kind: 'rect', x: 360, y: 360, width: 360, height: 360, fill: '' });
    expect(newShape('arrow', 'b', frame)).toMatchObject({ kind: 'arrow', x: 360, y: 540, width: 360, height: 0 });
    let h = startHistory();
    h = commit(h, { ...h.present, shapes: [newShape('circle', 'c', frame)] });
    h = commit(h, { ...h.present, shapes: h.present.shapes.map((s) => ({ ...s, x: 10 })) });
    h = commit(h, { ...h.present, shapes: [...h.present.shapes, newShape('line', 'd', frame)] });
    expect(h.present.shapes.map((s) => [s.kind, s.x])).toEqual([
      ['circle', 10],
      ['line', 360],
    ]);
    h = undo(h);
    expect(h.present.shapes.map((s) => s.id)).toEqual(['c']);
    h = undo(h);
    expect(h.present.shapes[0]!.x).toBe(360);
    h = undo(h);
    expect(h.present.shapes).toEqual([]);
    h = redo(redo(redo(h)));
    expect(h.present.shapes.map((s) => s.id)).toEqual(['c', 'd']);
  });
});
