import { describe, expect, it } from 'vitest';
import { jieba } from './chinese-text.js';
import { apartSegmenter, apartSegmenterWithFallback } from './segmenter-apart.js';

const TITLES = ['今冬首场寒潮来袭', '如何看待今冬首场寒潮？', '华为发布新款折叠屏手机Mate X7', '国足1比0战胜对手晋级世界杯预选赛', '人工智能大模型价格战打响', ''];

/** The child's pid, read from /proc: the segmenter keeps it to itself. */
async function childrenOfThisProcess(): Promise<number[]> {
  const { readdirSync, readFileSync } = await import('node:fs');
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${e}/cmdline`, 'utf8');
      if (Number(fields[1]) === process.pid && cmdline.includes('Jieba.withDict')) out.push(Number(e));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

describe('jieba in a child process', () => {
  it('cuts as the in-process segmenter does, batch after batch, and the child is gone after close', async () => {
    const seg = apartSegmenter();
    try {
      expect(await seg.cut(TITLES)).toEqual(TITLES.map((t) => jieba().cut(t, true)));
      expect(await seg.cut(['考研报名人数创新高'])).toEqual([jieba().cut('考研报名人数创新高', true)]);
      expect(await childrenOfThisProcess()).toHaveLength(1);
    } finally {
      seg.close();
    }
    await expect.poll(childrenOfThisProcess).toEqual([]);
    await expect(seg.cut(['还能分词吗'])).rejects.toThrow('分词进程已关闭');
  });

  it('batches sent together are answered in order', async () => {
    const seg = apartSegmenter();
    try {
      const [a, b] = await Promise.all([seg.cut(['人工智能']), seg.cut(['世界杯预选赛', '寒潮'])]);
      expect(a).toEqual([jieba().cut('人工智能', true)]);
      expect(b).toEqual([jieba().cut('世界杯预选赛', true), jieba().cut('寒潮', true)]);
    } finally {
      seg.close();
    }
  });

  it('a child killed mid-work fails the batch with a clear error instead of hanging, and later batches too', async () => {
    const seg = apartSegmenter();
    try {
      await seg.cut(['先启动']);
      const [pid] = await childrenOfThisProcess();
      // Stopped first, so the batch is surely still unanswered when the child dies.
      process.kill(pid!, 'SIGSTOP');
      const pending = seg.cut(['被打断的一批']);
      process.kill(pid!, 'SIGKILL');
      await expect(pending).rejects.toThrow('分词进程已退出（SIGKILL）');
      await expect(seg.cut(['之后的一批'])).rejects.toThrow('分词进程已退出（SIGKILL）');
    } finally {
      seg.close();
    }
  });

  it('with the fallback, a child killed mid-work costs nothing but memory: the batch is cut in this process, once told', async () => {
    const told: string[] = [];
    const seg = apartSegmenterWithFallback((err) => told.push(err.message));
    try {
      expect(await seg.cut(['先启动'])).toEqual([jieba().cut('先启动', true)]);
      const [pid] = await childrenOfThisProcess();
      process.kill(pid!, 'SIGSTOP');
      const pending = seg.cut(TITLES);
      process.kill(pid!, 'SIGKILL');
      expect(await pending).toEqual(TITLES.map((t) => jieba().cut(t, true)));
      expect(await seg.cut(['之后的一批'])).toEqual([jieba().cut('之后的一批', true)]);
      expect(told).toEqual([expect.stringContaining('分词进程已退出（SIGKILL）')]);
    } finally {
      seg.close();
    }
    await expect(seg.cut(['关闭之后'])).rejects.toThrow('分词进程已关闭');
  });
});
