import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AhoCorasick from 'modern-ahocorasick';
import { SensitiveWordRepo } from './lexicon.repo.js';
import type { DbOrTx } from '../../db/client.js';
import type { InvalidationBus } from '../../cache/bus.js';

/** Case, width, spaces, zero-width characters and separators do not hide a word. */
export function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\u200b-\u200f\u2060\ufeff·•・.,，。、_\-*|/\\~`'"“”‘’]+/g, '');
}

/** The committed lists in words/ beside this file (copied beside the build output; falls back to the source tree). */
function lexiconDir(): string | null {
  const here = fileURLToPath(new URL('./words/', import.meta.url));
  if (existsSync(here)) return here;
  const src = here.replace(`${path.sep}dist${path.sep}src${path.sep}`, `${path.sep}src${path.sep}`).replace(`${path.sep}dist${path.sep}`, `${path.sep}src${path.sep}`);
  return existsSync(src) ? src : null;
}

export function readCommittedWords(dir = lexiconDir()): string[] {
  if (!dir) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n'))
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

const RELOAD_MS = 30_000;
const BUS_TOPIC = 'lexicon';

/** Sensitive-content check for prompts and generated text: committed lists plus words operators added. */
export class SensitiveLexicon {
  private matcher: AhoCorasick | null = null;
  private loadedAt = 0;
  private readonly committed: string[];

  constructor(
    private readonly repo: SensitiveWordRepo,
    private readonly bus?: InvalidationBus,
  ) {
    this.committed = readCommittedWords();
    // An edit in any process: the next check here rebuilds the matcher.
    bus?.subscribe(BUS_TOPIC, () => (this.matcher = null));
    bus?.onReset(() => (this.matcher = null));
  }

  private async ensure(): Promise<AhoCorasick> {
    if (!this.matcher || Date.now() - this.loadedAt > RELOAD_MS) {
      const extra = await this.repo.enabledWords();
      const words = [...new Set([...this.committed, ...extra].map(normalise).filter(Boolean))];
      this.matcher = new AhoCorasick(words);
      this.loadedAt = Date.now();
    }
    return this.matcher;
  }

  /** The distinct words found (normalised); empty when the text is clean. */
  async check(text: string): Promise<string[]> {
    const m = await this.ensure();
    return [...new Set(m.search(normalise(text)).map((x) => x.pattern))];
  }

  async add(word: string): Promise<string> {
    const w = word.trim();
    if (!normalise(w)) throw new Error('词语不能为空');
    await this.repo.enable(w);
    this.changed();
    return w;
  }

  async remove(word: string): Promise<boolean> {
    const removed = await this.repo.disable(word.trim());
    this.changed();
    return removed;
  }

  // ---- the console: writes inside the caller's transaction (with its audit entry), then `changed()` once committed ----

  /** The committed words (read-only), as written in the files, without duplicates. */
  bundled(): string[] {
    return [...new Set(this.committed)];
  }

  addedWords(db?: DbOrTx) {
    return (db ? new SensitiveWordRepo(db) : this.repo).addedWords();
  }

  async addIn(tx: DbOrTx, word: string): Promise<void> {
    await new SensitiveWordRepo(tx).enable(word);
  }

  async removeIn(tx: DbOrTx, word: string): Promise<boolean> {
    return new SensitiveWordRepo(tx).disable(word);
  }

  /** This process checks against the new list at once, the others through the cache bus. */
  changed(): void {
    this.matcher = null;
    this.bus?.publish(BUS_TOPIC, '*');
  }

  async added(): Promise<string[]> {
    return this.repo.enabledWords();
  }
}
