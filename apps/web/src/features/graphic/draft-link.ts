import type { DraftItem } from '@inkstone/shared';

/** The drafts list is shared by articles and 图文: a graphic draft opens its note in /xhsEditor, an article the editor. */
export function draftHref(d: Pick<DraftItem, 'id' | 'createType' | 'taskId'>): string {
  if (d.createType === 'graphic' && d.taskId) return `/xhsEditor?taskId=${encodeURIComponent(d.taskId)}`;
  return `/editor?draftId=${d.id}`;
}

export const isGraphicDraft = (d: Pick<DraftItem, 'createType'>) => d.createType === 'graphic';
