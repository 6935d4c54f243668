import { z } from 'zod';
import { cardThemeIds } from '@inkstone/shared';

/**
 * What a writing task stores as its input (the jsonb `writing_tasks.input`), one schema per kind. Written when the
 * task is created and parsed when a run reads it back, so a run never works from a guessed shape. Fields that older
 * rows may lack have the default the runner assumed before these schemas existed.
 */
const knowledgeRefs = z.object({ docIds: z.array(z.number()), folderIds: z.array(z.number()), all: z.boolean() });

export const articleTaskInput = z.object({
  content: z.string().default(''),
  personaId: z.number().nullable().default(null),
  quoteFileIds: z.array(z.number()).default([]),
  onlineSearch: z.boolean().default(false),
  knowledge: knowledgeRefs.nullable().default(null),
  /** The home input's ability type (homeAbilities id); older rows have none. */
  abilityType: z.string().nullable().default(null),
});

export const graphicTaskInput = articleTaskInput.extend({
  contentCards: z.number().nullable().default(null),
  themeId: z.enum(cardThemeIds).nullable().default(null),
  pictureMode: z.enum(['card', 'ai']).default('card'),
});

export const abilityTaskInput = z.object({
  text: z.string().default(''),
  context: z.string().optional(),
  personaId: z.number().nullable().default(null),
  tone: z.string().optional(),
});

export type ArticleTaskInput = z.infer<typeof articleTaskInput>;

const byKind = { article: articleTaskInput, graphic: graphicTaskInput, ability: abilityTaskInput };
export type TaskKind = keyof typeof byKind;
export type TaskInputOf<K extends TaskKind> = z.infer<(typeof byKind)[K]>;

/** The stored input of a task of `kind`, checked; throws on a row that does not match (a bug, not user input). */
export function readTaskInput<K extends TaskKind>(kind: K, stored: unknown): TaskInputOf<K> {
  return byKind[kind].parse(stored) as TaskInputOf<K>;
}
