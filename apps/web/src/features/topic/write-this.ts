import type { TopicAngle, TopicItem } from '@inkstone/shared';
import { writingApi } from '../../api/writing';
import { useHomeInputStore, type CreateType } from '../../stores/home-input';

/** What 写这个 puts in the home input: the topic (and the chosen angle) on top, the background and links below. */
export function topicPrompt(subject: { title: string; summary?: string; url?: string }, angle?: TopicAngle | null) {
  const top = angle ? `选题：${subject.title}\n角度：${angle.angle}\n标题参考：${angle.title}\n开头参考：${angle.hook}` : `选题：${subject.title}`;
  const bottom = [subject.summary ? `背景：${subject.summary}` : '', subject.url ? `来源：${subject.url}` : ''].filter(Boolean).join('\n');
  return { top, bottom };
}

/**
 * Hands a topic to the home input. The home page loads the saved input from the server when it mounts, so the
 * prefill is saved there first (keeping the user's other choices), then put in the store.
 */
export async function writeThis(createType: CreateType, subject: Pick<TopicItem, 'title'> & Partial<Pick<TopicItem, 'summary' | 'url'>>, angle?: TopicAngle | null) {
  const editorContent = topicPrompt(subject, angle);
  try {
    const saved = await writingApi.homeInput(createType);
    await writingApi.saveHomeInput({ ...saved, createType, editorContent });
  } catch {
    // Not saved: the store below still carries it for this visit.
  }
  const store = useHomeInputStore.getState();
  store.update(createType, { editorContent });
  store.setCreateType(createType);
}

/** The persona chosen in the home input (article), so angles and map expansions are written in its voice. */
export function selectedPersonaId(): number | null {
  const p = useHomeInputStore.getState().article.personaType;
  return p && /^\d+$/.test(p) ? Number(p) : null;
}
