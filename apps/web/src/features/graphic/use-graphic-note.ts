import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { graphicLimits, noteTextLength, type GraphicCard, type GraphicTaskInfo } from '@inkstone/shared';
import { graphicApi } from '../../api/graphic';
import { queryKeys } from '../../api/query-keys';

const AUTOSAVE_MS = 1200;

export type SaveState = 'idle' | 'saving' | 'saved' | 'invalid' | 'error';

/** Why the note cannot be saved or published as it is (the platform's rules, counted as it counts). */
export function noteProblems(title: string, body: string, tags: string[]): string[] {
  const out: string[] = [];
  const t = noteTextLength(title.trim());
  const b = noteTextLength(body);
  if (t > graphicLimits.titleMax) out.push(`标题最多${graphicLimits.titleMax}字（当前${t}字）`);
  if (b > graphicLimits.bodyMax) out.push(`正文最多${graphicLimits.bodyMax}字（当前${b}字）`);
  if (tags.length > graphicLimits.tagsMax) out.push(`最多${graphicLimits.tagsMax}个话题`);
  return out;
}

/** The note's words as they are pasted into the app: title, body, then the topics. */
export const noteText = (title: string, body: string, tags: string[]) => [title.trim(), body.trim(), tags.map((t) => `#${t}`).join(' ')].filter(Boolean).join('\n\n');

/**
 * One graphic note in the editor: the task's cards from the server (every card call answers the whole list, written
 * into the cache), and the title, body and topics edited here and autosaved as the 图文 draft after a pause.
 */
export function useGraphicNote(taskId: string | null) {
  const qc = useQueryClient();
  const key = queryKeys.graphic.info(taskId);
  const info = useQuery({ queryKey: key, queryFn: () => graphicApi.info(taskId!), enabled: !!taskId });
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const [busy, setBusy] = useState(false);
  const loadedFor = useRef<string | null>(null);
  const lastSaved = useRef('');

  const ready = info.data?.status === 'succeeded';
  // The words are taken from the server once per finished task; after that the editor owns them.
  useEffect(() => {
    if (!info.data || !ready || loadedFor.current === info.data.taskId) return;
    loadedFor.current = info.data.taskId;
    setTitle(info.data.title);
    setBody(info.data.body);
    setTags(info.data.tags);
    lastSaved.current = JSON.stringify([info.data.title, info.data.body, info.data.tags]);
  }, [info.data, ready]);

  const problems = noteProblems(title, body, tags);
  useEffect(() => {
    if (!taskId || loadedFor.current !== taskId) return;
    const snapshot = JSON.stringify([title, body, tags]);
    if (snapshot === lastSaved.current) return;
    if (noteProblems(title, body, tags).length) {
      setSaveState('invalid');
      return;
    }
    const timer = window.setTimeout(() => {
      setSaveState('saving');
      graphicApi
        .saveDraft({ taskId, title, body, tags })
        .then(() => {
          lastSaved.current = snapshot;
          setSaveState('saved');
          // The cached note must hold the saved words: coming back from the image editor reads them from the cache.
          qc.setQueryData<GraphicTaskInfo>(queryKeys.graphic.info(taskId), (old) => (old ? { ...old, title, body, tags } : old));
        })
        .catch(() => setSaveState('error'));
    }, AUTOSAVE_MS);
    return () => window.clearTimeout(timer);
  }, [qc, taskId, title, body, tags]);

  /** Runs a card call and writes the card list it answers into the cached note. */
  const cardCall = async (call: () => Promise<{ cards: GraphicCard[] }>): Promise<boolean> => {
    setBusy(true);
    try {
      const { cards } = await call();
      qc.setQueryData<GraphicTaskInfo>(key, (old) => (old ? { ...old, cards } : old));
      return true;
    } catch {
      // the request layer showed the server's message
      return false;
    } finally {
      setBusy(false);
    }
  };

  return {
    info,
    ready,
    cards: info.data?.cards ?? [],
    title,
    setTitle,
    body,
    setBody,
    tags,
    setTags,
    problems,
    saveState,
    busy,
    cardCall,
    /** The task finished streaming while the page was open: read the note. */
    reload: () => qc.invalidateQueries({ queryKey: key }),
  };
}

export type GraphicNote = ReturnType<typeof useGraphicNote>;
