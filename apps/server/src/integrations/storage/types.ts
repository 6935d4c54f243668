import type { Readable } from 'node:stream';

/**
 * File bytes. Keys look like `public/images/<uuid>.png` (served to browsers) or `private/quote/<user>/<uuid>.pdf`
 * (never served). Writers stream: nothing is held in memory beyond one chunk.
 */
export interface StorageWriter {
  write(chunk: Buffer): Promise<void>;
  /** Makes the object visible under its key. */
  commit(): Promise<void>;
  /** Drops everything written; safe to call more than once. */
  abort(): Promise<void>;
}

export interface Storage {
  readonly name: 'local' | 's3';
  writer(key: string): Promise<StorageWriter>;
  read(key: string): Readable;
  delete(key: string): Promise<void>;
  /** Browser URL of a `public/` key. */
  publicUrl(key: string): string;
}

export const isValidKey = (key: string) => /^(public|private)\/[\w./-]+$/.test(key) && !key.includes('..');
