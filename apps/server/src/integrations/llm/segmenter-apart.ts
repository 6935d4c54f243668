import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { jieba, jiebaFiles } from './chinese-text.js';

/** jieba's search-mode cut (HMM on) of a batch of texts, one call per batch. */
export interface BatchSegmenter {
  cut(texts: string[]): Promise<string[][]>;
  /** Ends the segmenter; a cut after it, or one still waiting, fails. */
  close(): void;
}

/** A batch that takes longer than this ends the child: its texts are titles and summaries, a few KB. */
const BATCH_TIMEOUT_MS = 30_000;

const CHILD = `
  const [jiebaPath, dictPath] = process.argv.slice(1);
  const { Jieba } = require(jiebaPath);
  const jieba = Jieba.withDict(require('node:fs').readFileSync(dictPath));
  require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
    const texts = JSON.parse(line);
    process.stdout.write(JSON.stringify(texts.map((t) => jieba.cut(String(t), true))) + '\\n');
  });`;

/**
 * jieba in a child process, for work that runs unattended (the hot-topic refresh every 10 minutes). A built segmenter
 * holds ~45 MB of native memory that a process never hands back, not even when it was built in a worker thread that
 * has ended, so one refresh would leave an idle server that much bigger for good (issue 11). The child starts on the
 * first cut (~150 ms) and its memory goes with it on close(). Work a creator starts (knowledge, tags, keywords) keeps
 * the in-process segmenter of chinese-text.ts: a server in use has it loaded anyway.
 */
export function apartSegmenter(): BatchSegmenter {
  let child: ChildProcessWithoutNullStreams | null = null;
  let closed = false;
  let failure: Error | null = null;
  const waiting: Array<{ resolve: (v: string[][]) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }> = [];

  const fail = (err: Error) => {
    failure ??= err;
    for (const w of waiting.splice(0)) {
      clearTimeout(w.timer);
      w.reject(failure);
    }
    child?.kill('SIGKILL');
  };

  const start = () => {
    const files = jiebaFiles();
    const c = spawn(process.execPath, ['-e', CHILD, files.module, files.dictionary('dict.txt')], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    c.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
    createInterface({ input: c.stdout }).on('line', (line) => {
      const w = waiting.shift();
      if (!w) return;
      clearTimeout(w.timer);
      try {
        w.resolve(JSON.parse(line) as string[][]);
      } catch {
        fail(new Error('分词进程的回复无法解析'));
      }
    });
    c.on('error', (err) => fail(new Error(`分词进程无法启动：${err.message}`)));
    // Gone for whatever reason: what waits fails now and what comes later fails at once, rather than waiting out the timeout.
    c.on('close', (code, signal) => fail(new Error(`分词进程已退出（${signal ?? `exit ${code}`}）：${stderr.trim().slice(-300) || '无输出'}`)));
    // Writing to a child that died is reported by 'close' above; the pipe's own error adds nothing.
    c.stdin.on('error', () => {});
    return c;
  };

  return {
    cut(texts) {
      if (closed) return Promise.reject(new Error('分词进程已关闭'));
      if (failure) return Promise.reject(failure);
      if (!texts.length) return Promise.resolve([]);
      child ??= start();
      const c = child;
      return new Promise<string[][]>((resolve, reject) => {
        const timer = setTimeout(() => fail(new Error('分词超时')), BATCH_TIMEOUT_MS);
        waiting.push({ resolve, reject, timer });
        c.stdin.write(`${JSON.stringify(texts)}\n`);
      });
    },
    close() {
      if (closed) return;
      closed = true;
      fail(new Error('分词进程已关闭'));
    },
  };
}

/**
 * apartSegmenter, falling back to this process's segmenter (chinese-text.ts) once the child fails (it could not start,
 * or was killed): the work still completes, at the memory cost the child exists to save. `onFallback` is told why, once.
 */
export function apartSegmenterWithFallback(onFallback: (err: Error) => void): BatchSegmenter {
  const apart = apartSegmenter();
  let closed = false;
  let fallen = false;
  return {
    async cut(texts) {
      if (closed) throw new Error('分词进程已关闭');
      if (!fallen) {
        try {
          return await apart.cut(texts);
        } catch (err) {
          if (closed) throw err;
          fallen = true;
          apart.close();
          onFallback(err as Error);
        }
      }
      return texts.map((t) => jieba().cut(t, true));
    },
    close() {
      closed = true;
      apart.close();
    },
  };
}
