/** The image editor's document: everything needed to draw the card again, kept as plain data so undo/redo is a list. */

import { cardAspectIds, cardAspects, type CardAspect } from '@inkstone/shared';

/** The crops the editor offers are the card shapes the server stores (the export is uploaded with its aspect). */
export const cropRatios = cardAspectIds;
export type CropRatio = CardAspect;

export interface TextLayer {
  id: string;
  text: string;
  /** Position of the text's top-left corner, in output pixels. */
  x: number;
  y: number;
  fontSize: number;
  fontFamily: string;
  fill: string;
  stroke: string;
  strokeWidth: number;
}

export const shapeKinds = ['rect', 'circle', 'arrow', 'line'] as const;
export type ShapeKind = (typeof shapeKinds)[number];

/** A shape sticker, drawn by konva over the picture. */
export interface ShapeLayer {
  id: string;
  kind: ShapeKind;
  /** The shape's box (top-left corner and size) in output pixels; a line or arrow runs from its left-middle to its right-middle. */
  x: number;
  y: number;
  width: number;
  height: number;
  stroke: string;
  strokeWidth: number;
  /** Fill of a rect or circle; '' = outline only. Lines and arrows ignore it (an arrow's head takes the stroke). */
  fill: string;
}

export interface EditDoc {
  crop: CropRatio;
  rotation: 0 | 90 | 180 | 270;
  /** Where the picture sits within the range that keeps the frame covered (0..1 each way; 0.5, 0.5 = centred). */
  panX: number;
  panY: number;
  /** Konva's Brighten (-1..1), Contrast (-100..100) and HSL saturation (-2..10, 0 = unchanged). */
  brightness: number;
  contrast: number;
  saturation: number;
  texts: TextLayer[];
  shapes: ShapeLayer[];
}

export const initialDoc = (): EditDoc => ({ crop: '3:4', rotation: 0, panX: 0.5, panY: 0.5, brightness: 0, contrast: 0, saturation: 0, texts: [], shapes: [] });

/** A new shape of `kind` centred in the frame, sized to a third of its width (lines and arrows are flat). */
export function newShape(kind: ShapeKind, id: string, frame: { width: number; height: number }): ShapeLayer {
  const width = Math.round(frame.width / 3);
  const height = kind === 'line' || kind === 'arrow' ? 0 : width;
  return {
    id,
    kind,
    x: Math.round((frame.width - width) / 2),
    y: Math.round((frame.height - height) / 2),
    width,
    height,
    stroke: '#ff2442',
    strokeWidth: 12,
    fill: '',
  };
}

export interface History {
  past: EditDoc[];
  present: EditDoc;
  future: EditDoc[];
}

const HISTORY_MAX = 100;

export const startHistory = (doc: EditDoc = initialDoc()): History => ({ past: [], present: doc, future: [] });

/** A change that can be undone; a change equal to the present is not a step. */
export function commit(h: History, next: EditDoc): History {
  if (JSON.stringify(next) === JSON.stringify(h.present)) return h;
  return { past: [...h.past, h.present].slice(-HISTORY_MAX), present: next, future: [] };
}

export function undo(h: History): History {
  const prev = h.past.at(-1);
  return prev ? { past: h.past.slice(0, -1), present: prev, future: [h.present, ...h.future] } : h;
}

export function redo(h: History): History {
  const next = h.future[0];
  return next ? { past: [...h.past, h.present], present: next, future: h.future.slice(1) } : h;
}

/** The frame's size in output pixels. */
export const frameSize = (crop: CropRatio) => ({ width: cardAspects[crop].width, height: cardAspects[crop].height });

/**
 * How the picture covers the frame after rotation (like CSS object-fit: cover): its scale, and the allowed range of
 * its centre so that no empty edge shows.
 */
export function coverFit(imgW: number, imgH: number, rotation: number, frameW: number, frameH: number) {
  const sideways = rotation === 90 || rotation === 270;
  const rw = sideways ? imgH : imgW;
  const rh = sideways ? imgW : imgH;
  const scale = Math.max(frameW / rw, frameH / rh);
  const w = rw * scale;
  const h = rh * scale;
  return { scale, minX: frameW - w / 2, maxX: w / 2, minY: frameH - h / 2, maxY: h / 2 };
}

/** The picture's centre in frame pixels for a pan, kept inside the covering range. */
export function centreFor(doc: Pick<EditDoc, 'panX' | 'panY' | 'rotation' | 'crop'>, imgW: number, imgH: number) {
  const { width, height } = frameSize(doc.crop);
  const fit = coverFit(imgW, imgH, doc.rotation, width, height);
  const unit = (v: number) => Math.min(1, Math.max(0, v));
  return { x: fit.minX + unit(doc.panX) * (fit.maxX - fit.minX), y: fit.minY + unit(doc.panY) * (fit.maxY - fit.minY), scale: fit.scale };
}

/** The pan (0..1 each way) that puts the picture's centre at frame pixel (x, y), kept inside the covering range. */
export function panFor(doc: Pick<EditDoc, 'rotation' | 'crop'>, imgW: number, imgH: number, x: number, y: number) {
  const { width, height } = frameSize(doc.crop);
  const fit = coverFit(imgW, imgH, doc.rotation, width, height);
  const unit = (v: number, lo: number, hi: number) => (hi - lo < 1e-6 ? 0.5 : Math.min(1, Math.max(0, (v - lo) / (hi - lo))));
  return { panX: unit(x, fit.minX, fit.maxX), panY: unit(y, fit.minY, fit.maxY) };
}
