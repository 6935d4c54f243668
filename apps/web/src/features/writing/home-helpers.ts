import { writingLimits, type FestivalItem, type WriteType } from '@inkstone/shared';

/**
 * The task has one `content` field; the home input has two documents. For imitate the bottom one is
 * the sample to imitate, for rewrite it is the text to rewrite; otherwise it adds material.
 */
export function buildTaskContent(writeType: WriteType, top: string, bottom: string): string {
  const t = top.trim();
  const b = bottom.trim();
  let out: string;
  if (writeType === 'imitate') out = b ? `${t ? `主题：${t}\n\n` : ''}示例文本：\n${b}` : t;
  else if (writeType === 'rewrite') out = b ? `${t ? `改写要求：${t}\n\n` : ''}${b}` : t;
  else out = b ? `${t}\n\n补充材料：\n${b}` : t;
  return out.slice(0, writingLimits.promptMaxChars);
}

/** What is missing before a task can start, or null. */
export function startProblem(writeType: WriteType, top: string, bottom: string): string | null {
  if (writeType === 'imitate' && !bottom.trim()) return '请粘贴要仿写的范文';
  if (writeType === 'rewrite' && !bottom.trim()) return '请粘贴需要改写的内容';
  if (!top.trim() && !bottom.trim()) return '请先输入写作主题';
  return null;
}

/** Festivals from today on, nearest first; `today` as YYYY-MM-DD in the user's zone. */
export function upcomingFestivals(items: FestivalItem[], today: string, max = 4): FestivalItem[] {
  return items
    .filter((f) => (f.endDate ?? f.date) >= today)
    .sort((a, b) => a.date.localeCompare(b.date))
    .slice(0, max);
}

export function localDate(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}
