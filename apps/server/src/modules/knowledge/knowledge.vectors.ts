import { createHash } from 'node:crypto';
import type { DocFilter, KnowledgeRepo } from './knowledge.repo.js';

/** Reciprocal rank fusion constant (Cormack et al.; the usual 60): ranks matter, raw scores of the two lists never meet. */
const RRF_K = 60;

/**
 * Fuses ranked lists: each item scores the sum of 1 / (RRF_K + rank) over the lists it appears in (rank from 1).
 * Ties keep the order of first appearance (full-text list first).
 */
export function reciprocalRankFusion(lists: number[][]): Array<{ id: number; score: number }> {
  const scores = new Map<number, number>();
  for (const list of lists) list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + i + 1)));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

interface Entry {
  key: string;
  fingerprint: string;
  ids: Float64Array;
  docIds: Float64Array;
  dims: number;
  /** Row-major, each row L2-normalised: cosine is then one dot product. */
  matrix: Float32Array;
}

/**
 * The fallback ranker for PostgreSQL without pgvector: vectors stay real[] in the table and cosine is computed here.
 * SQL over arrays costs about 1 s for 20,000 passages (an unnest per row), and reading every vector per search
 * costs more; so each user's vectors are read once into one Float32Array and kept until they change.
 *
 * Change detection: every search first reads the user's embedded documents with their `embedded_at` (a few hundred
 * small rows, indexed by user); any new, deleted or re-embedded document changes the fingerprint and the entry is
 * read again. This holds across processes (another worker embedding a document is seen at the next search).
 * Memory is bounded: least recently used users are dropped past `maxFloats` (default 16M floats = 64 MiB).
 */
export class VectorCache {
  private readonly entries = new Map<string, Entry>();
  private floats = 0;

  constructor(private readonly maxFloats = 16_000_000) {}

  /** The `k` passages nearest to `query` among the user's documents embedded with `model` that pass `f`. */
  async nearest(repo: KnowledgeRepo, userId: number, model: string, f: DocFilter, query: number[], k: number): Promise<Array<{ id: number; score: number }>> {
    const docs = await repo.embeddedDocs(userId, model, f);
    const allowed = new Set(docs.filter((d) => d.match).map((d) => d.id));
    if (!allowed.size) return [];
    const fingerprint = createHash('sha1')
      .update(docs.map((d) => `${d.id}@${d.embeddedAt?.getTime() ?? 0}`).join(','))
      .digest('hex');
    const key = `${userId}:${model}`;
    let entry = this.entries.get(key);
    if (!entry || entry.fingerprint !== fingerprint) {
      entry = await this.load(
        repo,
        key,
        userId,
        model,
        docs.map((d) => d.id),
        fingerprint,
      );
    } else {
      // Most recently used last (Map keeps insertion order).
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    const { dims, matrix, ids, docIds } = entry;
    if (query.length !== dims) return [];
    const norm = Math.hypot(...query) || 1;
    const q = Float32Array.from(query, (x) => x / norm);
    const scored: Array<{ id: number; score: number }> = [];
    for (let r = 0; r < ids.length; r++) {
      if (!allowed.has(docIds[r]!)) continue;
      let dot = 0;
      const base = r * dims;
      for (let i = 0; i < dims; i++) dot += matrix[base + i]! * q[i]!;
      scored.push({ id: ids[r]!, score: dot });
    }
    scored.sort((a, b) => b.score - a.score || a.id - b.id);
    return scored.slice(0, k);
  }

  private async load(repo: KnowledgeRepo, key: string, userId: number, model: string, docIds: number[], fingerprint: string): Promise<Entry> {
    const rows = (await repo.loadEmbeddings(userId, model, docIds)).filter((r) => r.embedding?.length);
    const dims = rows[0]?.embedding?.length ?? 0;
    const usable = rows.filter((r) => r.embedding!.length === dims);
    const matrix = new Float32Array(usable.length * dims);
    const ids = new Float64Array(usable.length);
    const owners = new Float64Array(usable.length);
    usable.forEach((r, i) => {
      const v = r.embedding!;
      const n = Math.hypot(...v) || 1;
      for (let j = 0; j < dims; j++) matrix[i * dims + j] = v[j]! / n;
      ids[i] = r.id;
      owners[i] = r.docId;
    });
    const entry: Entry = { key, fingerprint, ids, docIds: owners, dims, matrix };
    const old = this.entries.get(key);
    if (old) {
      this.floats -= old.matrix.length;
      this.entries.delete(key);
    }
    this.entries.set(key, entry);
    this.floats += matrix.length;
    // Past the budget the least recently used go (never the entry just read: it answers this search).
    for (const [k, e] of this.entries) {
      if (this.floats <= this.maxFloats || k === key) break;
      this.entries.delete(k);
      this.floats -= e.matrix.length;
    }
    return entry;
  }
}
