import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { discardSpool } from './spool.js';
import { isValidKey, type Storage, type StorageWriter } from './types.js';

/** Embedded default: files under `<DATA_DIR>/uploads`; `public/` is served at `/uploads/` by a static route. */
export class LocalStorage implements Storage {
  readonly name = 'local' as const;
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.resolve(dataDir, 'uploads');
    mkdirSync(path.join(this.root, 'public'), { recursive: true });
    mkdirSync(path.join(this.root, 'private'), { recursive: true });
  }

  get publicRoot() {
    return path.join(this.root, 'public');
  }

  private file(key: string): string {
    if (!isValidKey(key)) throw new Error(`invalid storage key ${key}`);
    return path.join(this.root, key);
  }

  async writer(key: string): Promise<StorageWriter> {
    const target = this.file(key);
    mkdirSync(path.dirname(target), { recursive: true });
    const tmp = `${target}.${randomUUID()}.part`;
    const out = createWriteStream(tmp);
    let failed: Error | null = null;
    out.on('error', (err) => {
      failed = err;
    });
    let done = false;
    return {
      write: (chunk) =>
        new Promise<void>((resolve, reject) => {
          if (failed) return reject(failed);
          if (out.write(chunk)) resolve();
          else out.once('drain', () => (failed ? reject(failed) : resolve()));
        }),
      commit: async () => {
        await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err || failed ? reject(err ?? failed) : resolve())));
        await rename(tmp, target);
        done = true;
      },
      abort: async () => {
        if (done) return;
        done = true;
        await discardSpool(out, tmp);
      },
    };
  }

  read(key: string): Readable {
    return createReadStream(this.file(key));
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  publicUrl(key: string): string {
    if (!key.startsWith('public/')) throw new Error('not a public key');
    return `/uploads/${key.slice('public/'.length)}`;
  }
}
