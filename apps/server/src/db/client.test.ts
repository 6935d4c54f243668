import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir, openDatabase, StartupError } from './client.js';

describe('DATA_DIR lock', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'inkstone-lock-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  /** A lock as a process that is gone left it: the lock directory and the owner file. */
  const leftBehind = (dir: string, owner: { pid: number; host: string }) => {
    mkdirSync(path.join(dir, '.inkstone.lock'));
    writeFileSync(path.join(dir, '.inkstone.lock.json'), JSON.stringify({ ...owner, startedAt: '2026-01-02T03:04:05.000Z', command: 'main.js' }));
  };

  it('a second open of a held directory is refused with the holder named; close releases it', async () => {
    const dir = fresh();
    const db = await openDatabase({ dataDir: dir });
    const err = await openDatabase({ dataDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect((err as Error).message).toContain(`数据目录 ${dir} 正被另一个进程（pid ${process.pid}，启动于`);
    await db.close();
    expect(existsSync(path.join(dir, '.inkstone.lock'))).toBe(false);
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });

  it('a lock left by a killed process on this host is taken over at once', async () => {
    const dir = fresh();
    // A pid that certainly exited: a child we ran to completion.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    leftBehind(dir, { pid: gone, host: hostname() });
    const release = await lockDataDir(dir);
    await release();
  });

  it('a fresh lock from another host is refused (naming the host); one not refreshed for 30 s is taken over', async () => {
    const dir = fresh();
    leftBehind(dir, { pid: 4242, host: 'other-host' });
    await expect(lockDataDir(dir)).rejects.toThrow('（pid 4242，主机 other-host，启动于');
    const old = new Date(Date.now() - 60_000);
    utimesSync(path.join(dir, '.inkstone.lock'), old, old);
    const release = await lockDataDir(dir);
    await release();
  });
});

describe('a new data directory', () => {
  it('is created in a child process: this process does not keep the memory creating a cluster grows to', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inkstone-fresh-'));
    try {
      // What a start killed while creating the cluster left: a half-built one beside it, never the cluster itself.
      mkdirSync(path.join(dir, 'pglite.init-999999', 'base'), { recursive: true });
      const before = process.memoryUsage().external;
      const db = await openDatabase({ dataDir: dir });
      // One open PGlite holds ~140 MB of wasm memory; creating the cluster in this process grew it past 550 MB.
      const grown = (process.memoryUsage().external - before) / 1048576;
      expect(grown).toBeLessThan(300);
      expect(existsSync(path.join(dir, 'pglite', 'PG_VERSION'))).toBe(true);
      const applied = (await db.db.execute('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations')) as unknown as { rows: { n: number }[] };
      expect(applied.rows[0]!.n).toBeGreaterThan(0);
      await db.close();
      const again = await openDatabase({ dataDir: dir });
      await again.close();
      expect(readdirSync(dir).filter((e) => e.includes('.init-'))).toEqual([]);
      expect(readdirSync(path.join(dir, 'pglite'))).toContain('base');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
