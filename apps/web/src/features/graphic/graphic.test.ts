import { describe, expect, it } from 'vitest';
import { draftHref, isGraphicDraft } from './draft-link';
import { cropRatios, frameSize } from './image-editor/edit-state';
import { previewAspect } from './phone-preview';
import { moveId } from './card-strip';
import { cleanTags } from './note-fields';
import { noteProblems, noteText } from './use-graphic-note';
import { readGraphicConfig } from './use-graphic-start';

describe('graphic note rules', () => {
  it('counts the title as Xiaohongshu does: 20 CJK pass, 21 fail, two ASCII letters count one', () => {
    expect(noteProblems('一'.repeat(20), '', [])).toEqual([]);
    expect(noteProblems('一'.repeat(21), '', [])).toEqual(['标题最多20字（当前21字）']);
    expect(noteProblems('a'.repeat(40), '', [])).toEqual([]);
    expect(noteProblems('a'.repeat(41), '', [])).toEqual(['标题最多20字（当前21字）']);
    expect(
      noteProblems(
        '',
        '字'.repeat(1001),
        Array.from({ length: 11 }, (_, i) => `t${i}`),
      ),
    ).toEqual(['正文最多1000字（当前1001字）', '最多10个话题']);
  });

  it('cleans topics: no #, no blanks or repeats, at most 10', () => {
    expect(cleanTags(['#露营', ' 露营 ', '', '##户外'])).toEqual(['露营', '户外']);
    expect(cleanTags(Array.from({ length: 12 }, (_, i) => `话题${i}`))).toHaveLength(10);
  });

  it('copies the note as title, body, then topics', () => {
    expect(noteText(' 标题 ', '正文', ['a', 'b'])).toBe('标题\n\n正文\n\n#a #b');
  });

  it('moves a card id forwards and backwards', () => {
    expect(moveId(['a', 'b', 'c', 'd'], 1, 2)).toEqual(['a', 'c', 'b', 'd']);
    expect(moveId(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
  });

  it('reads the saved graphicModelConfig, dropping what the server would refuse', () => {
    expect(readGraphicConfig(null)).toEqual({ contentCards: null, pictureMode: 'card' });
    expect(readGraphicConfig({ contentCards: 5, pictureMode: 'ai' })).toEqual({ contentCards: 5, pictureMode: 'ai' });
    expect(readGraphicConfig({ contentCards: 30, pictureMode: 'x' })).toEqual({ contentCards: null, pictureMode: 'card' });
  });
});

describe('the shared drafts list', () => {
  it('opens a 图文 draft in /xhsEditor at its task and an article draft in the editor', () => {
    expect(draftHref({ id: 7, createType: 'graphic', taskId: 'abc-1' })).toBe('/xhsEditor?taskId=abc-1');
    expect(draftHref({ id: 7, createType: 'article', taskId: 'abc-1' })).toBe('/editor?draftId=7');
    // A graphic draft always has its task; without one the editor is the only place it can open.
    expect(draftHref({ id: 8, createType: 'graphic', taskId: null })).toBe('/editor?draftId=8');
    expect(isGraphicDraft({ createType: 'graphic' })).toBe(true);
    expect(isGraphicDraft({ createType: 'article' })).toBe(false);
  });
});

describe('card shapes', () => {
  it('the preview takes the first card’s shape; the editor’s crops are the sizes the server stores', () => {
    expect(previewAspect([])).toBe('3 / 4');
    expect(
      previewAspect([
        { width: 1080, height: 1080 },
        { width: 1080, height: 1440 },
      ]),
    ).toBe('1080 / 1080');
    expect(previewAspect([{ width: 1440, height: 1080 }])).toBe('1440 / 1080');
    expect(cropRatios.map((r) => [r, frameSize(r)])).toEqual([
      ['3:4', { width: 1080, height: 1440 }],
      ['1:1', { width: 1080, height: 1080 }],
      ['4:3', { width: 1440, height: 1080 }],
    ]);
  });
});
