/** Streaming text is shown with the same safe renderer the server uses for saved drafts. */
export { markdownToHtml } from '@inkstone/shared';

/** Characters a reader would count: CJK characters, and latin words as one each. */
export function countWords(text: string): number {
  const cjk = text.match(/[\u3400-\u9fff\uf900-\ufaff]/g)?.length ?? 0;
  const words = text.replace(/[\u3400-\u9fff\uf900-\ufaff]/g, ' ').match(/[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*/g)?.length ?? 0;
  return cjk + words;
}
