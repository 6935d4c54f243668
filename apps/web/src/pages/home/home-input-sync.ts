import { useEffect, useRef } from 'react';
import { writingLimits, type WriteType } from '@inkstone/shared';
import { useHomeInputStore, type CreateType, type HomeInputInfo } from '../../stores/home-input';
import { writingApi, type SaveHomeInput, type SavedHomeInput } from '../../api/writing';
import { readGraphicConfig } from '../../features/graphic/use-graphic-start';

export const writeTypeOptions: { value: WriteType; label: string }[] = [
  { value: 'deep', label: '深度写作' },
  { value: 'quick', label: '快速写作' },
  { value: 'imitate', label: '仿写' },
  { value: 'rewrite', label: '改写' },
];

const SAVE_DEBOUNCE_MS = 800;
export const asText = (v: unknown) => (typeof v === 'string' ? v : '');
export const asWriteType = (v: string): WriteType => (writeTypeOptions.some((o) => o.value === v) ? (v as WriteType) : 'deep');
export const fileIds = (v: unknown[]) => v.filter((x): x is number => typeof x === 'number');

function toSaved(createType: CreateType, i: HomeInputInfo): SaveHomeInput {
  return {
    createType,
    editorContent: { top: asText(i.editorContent.top), bottom: asText(i.editorContent.bottom) },
    writeType: asWriteType(i.writeType),
    onlineSearch: i.onlineSearch,
    quoteFileIds: fileIds(i.writeFileList).slice(0, writingLimits.quoteFilesMax),
    personaId: i.personaType ? Number(i.personaType) : null,
    abilityType: i.abilityType,
    modelConfigType: i.modelConfigType,
    ...(createType === 'graphic' ? { graphicModelConfig: readGraphicConfig(i.graphicModelConfig) } : {}),
  };
}

function fromSaved(s: SavedHomeInput): Partial<HomeInputInfo> {
  return {
    editorContent: { top: s.editorContent.top, bottom: s.editorContent.bottom },
    writeType: s.writeType,
    onlineSearch: s.onlineSearch,
    writeFileList: s.quoteFileIds,
    personaType: s.personaId ? String(s.personaId) : null,
    abilityType: s.abilityType,
    modelConfigType: s.modelConfigType,
    graphicModelConfig: s.graphicModelConfig,
  };
}

/** Loads the saved input once per login and saves edits after a pause; article and graphic apart. */
export function useHomeInputSync(enabled: boolean) {
  const loaded = useRef<Record<CreateType, boolean>>({ article: false, graphic: false });
  const lastSaved = useRef<Record<CreateType, string>>({ article: '', graphic: '' });
  const article = useHomeInputStore((s) => s.article);
  const graphic = useHomeInputStore((s) => s.graphic);

  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    for (const t of ['article', 'graphic'] as const) {
      const before = JSON.stringify(toSaved(t, useHomeInputStore.getState()[t]));
      writingApi
        .homeInput(t)
        .then((saved) => {
          if (!alive) return;
          const now = toSaved(t, useHomeInputStore.getState()[t]);
          // What the creator typed while the saved input was on its way wins over it, and is saved in its place.
          if (JSON.stringify(now) !== before) {
            lastSaved.current[t] = JSON.stringify(now);
            writingApi.saveHomeInput(now).catch(() => {
              lastSaved.current[t] = '';
            });
            return;
          }
          useHomeInputStore.getState().update(t, fromSaved(saved));
          lastSaved.current[t] = JSON.stringify(toSaved(t, useHomeInputStore.getState()[t]));
        })
        .catch(() => {})
        .finally(() => {
          if (alive) loaded.current[t] = true;
        });
    }
    return () => {
      alive = false;
    };
  }, [enabled]);

  useEffect(() => {
    if (!enabled) return;
    const timers = (['article', 'graphic'] as const).map((t) =>
      window.setTimeout(() => {
        if (!loaded.current[t]) return;
        const body = toSaved(t, useHomeInputStore.getState()[t]);
        const key = JSON.stringify(body);
        if (key === lastSaved.current[t]) return;
        lastSaved.current[t] = key;
        writingApi.saveHomeInput(body).catch(() => {
          lastSaved.current[t] = '';
        });
      }, SAVE_DEBOUNCE_MS),
    );
    return () => timers.forEach((id) => window.clearTimeout(id));
  }, [enabled, article, graphic]);
}
