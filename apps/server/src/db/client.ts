import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Start-up cannot go on (data directory locked, unwritable, full); the message is for the operator, in Chinese. */
export class StartupError extends Error {}

/** Who holds a DATA_DIR, written next to the lock so a refused process can name it. */
interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
}

const LOCK_NAME = '.inkstone.lock';
const OWNER_NAME = '.inkstone.lock.json';
/**
 * proper-lockfile refreshes the lock's mtime every stale/2; one not refreshed for this long is taken over (its
 * holder died on another host sharing the volume). Generous because PGlite runs on the main thread and a long
 * query must not make a live server's lock look stale. Same-host dead holders are detected at once by pid.
 */
const LOCK_STALE_MS = 30_000;

const FS_REASONS: Record<string, string> = {
  EACCES: '没有写入权限',
  EPERM: '没有写入权限',
  EROFS: '所在文件系统为只读',
  ENOSPC: '磁盘空间已满',
  EDQUOT: '磁盘配额已用完',
  ENOTDIR: '路径中有一段是文件而不是目录',
  EEXIST: '路径已存在且不是目录',
  ENOENT: '路径不存在',
};

/** The operator's wording for a file-system failure under `dir`; anything unknown keeps its own code and text. */
function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? '';
  return FS_REASONS[code] ?? `${code ? `${code}: ` : ''}${err instanceof Error ? err.message : String(err)}`;
}

/**
 * PGlite's file system is Emscripten's: its ErrnoError carries only a WASI errno number (no Node code), which
 * drizzle wraps as "Failed query". The numbers the operator can act on.
 */
const WASI_ERRNO: Record<number, string> = { 2: 'EACCES', 19: 'EDQUOT', 44: 'ENOENT', 51: 'ENOSPC', 54: 'ENOTDIR', 63: 'EPERM', 69: 'EROFS' };

/** One link of an error chain as the file system error code it carries, if any: Node's code, or PGlite's WASI errno. */
function fsCodeOf(link: { code?: unknown; errno?: unknown; name?: unknown }): string | undefined {
  if (typeof link.code === 'string' && /^E[A-Z]+$/.test(link.code)) return link.code;
  return link.name === 'ErrnoError' && typeof link.errno === 'number' ? WASI_ERRNO[link.errno] : undefined;
}

/** Looks for the first file-system cause in an error chain (drizzle wraps the driver's error). */
function fsCause(err: unknown): NodeJS.ErrnoException | undefined {
  for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const { code, errno } = e as NodeJS.ErrnoException;
    const found = fsCodeOf({ code, errno, name: (e as Error).constructor?.name });
    if (!found) continue;
    return found === code ? (e as NodeJS.ErrnoException) : Object.assign(new Error(found), { code: found });
  }
  return undefined;
}

function readOwner(dir: string): LockOwner | null {
  try {
    return JSON.parse(readFileSync(path.join(dir, OWNER_NAME), 'utf8')) as LockOwner;
  } catch {
    return null;
  }
}

/** Data directories this process holds, so a second open here is refused rather than mistaken for a restart. */
const heldHere = new Set<string>();

/** True when `pid` on this host is certainly gone (or is us after a restart: a container's pid 1). */
function deadOnThisHost(owner: LockOwner | null, dir: string): boolean {
  if (!owner || owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return !heldHere.has(dir);
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Takes DATA_DIR for this process alone: PGlite is single-writer, and a second process on the same files silently
 * loses what it writes. Refuses with the holder's pid and start time; a lock left by a killed process on this host
 * is taken over at once, one from elsewhere once it has not been refreshed for LOCK_STALE_MS.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const dir = path.resolve(dataDir);
  const shown = dataDir;
  try {
    mkdirSync(dir, { recursive: true });
  } catch (caught) {
    let err = caught;
    // A recursive mkdir on a read-only file system reports ENOENT; the nearest existing parent tells the truth.
    if ((caught as NodeJS.ErrnoException).code === 'ENOENT') {
      let parent = path.dirname(dir);
      while (!existsSync(parent) && parent !== path.dirname(parent)) parent = path.dirname(parent);
      try {
        accessSync(parent, constants.W_OK);
      } catch (e) {
        err = e;
      }
    }
    throw new StartupError(`无法创建数据目录 ${shown}（${dir}）：${describeFsError(err)}。请检查 DATA_DIR 设置与目录权限。`);
  }
  const lockfilePath = path.join(dir, LOCK_NAME);
  const take = () =>
    lockfile.lock(dir, {
      lockfilePath,
      realpath: false,
      stale: LOCK_STALE_MS,
      retries: 0,
      // The lock was taken over or could not be refreshed: another process may now write the same files.
      onCompromised: (err) => {
        console.error(`数据目录 ${shown} 的锁已失效（${err.message}），为避免数据损坏立即退出。`);
        process.exit(1);
      },
    });
  let release: () => Promise<void>;
  try {
    release = await take();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ELOCKED') throw new StartupError(`无法锁定数据目录 ${shown}（${dir}）：${describeFsError(err)}。`);
    const owner = readOwner(dir);
    if (!deadOnThisHost(owner, dir)) {
      const who = owner
        ? `pid ${owner.pid}${owner.host === hostname() ? '' : `，主机 ${owner.host}`}，启动于 ${new Date(owner.startedAt).toLocaleString('zh-CN', { hour12: false })}`
        : '未知进程';
      throw new StartupError(`数据目录 ${shown} 正被另一个进程（${who}）使用。内嵌数据库同一时间只能由一个进程打开：请先停止该进程，或改用 DATABASE_URL 连接 PostgreSQL。`);
    }
    // The holder was killed (kill -9, power loss) and could not remove its lock: take it over.
    rmSync(lockfilePath, { recursive: true, force: true });
    try {
      release = await take();
    } catch {
      throw new StartupError(`数据目录 ${shown} 正被另一个刚启动的进程使用，请稍后重试。`);
    }
  }
  try {
    const owner: LockOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command: path.basename(process.argv[1] ?? '') };
    writeFileSync(path.join(dir, OWNER_NAME), `${JSON.stringify(owner)}\n`);
  } catch (err) {
    await release().catch(() => undefined);
    throw new StartupError(`数据目录 ${shown}（${dir}）不可写：${describeFsError(err)}。`);
  }
  heldHere.add(dir);
  return async () => {
    heldHere.delete(dir);
    rmSync(path.join(dir, OWNER_NAME), { force: true });
    await release();
  };
}

// shared_buffers at PostgreSQL's default (128 MB) is touched at start-up and stays resident: an embedded install's
// working set is small, and the file system cache below PGlite still holds what is read. 32 MB keeps ~100 MB off the
// idle footprint.
const PGLITE_CONF = ['shared_buffers=32MB'];

/**
 * PGlite with pgvector (the extension ships with it): 知识库 vectors are stored and ranked there. On PostgreSQL the
 * extension is optional, see KnowledgeRepo.prepareVectors.
 */
async function openPglite(dir?: string): Promise<PGlite> {
  // PGlite(undefined, options) would read `undefined` as the options: in memory takes the options alone.
  const options = { extensions: { vector }, postgresqlconf: PGLITE_CONF };
  const client = dir ? new PGlite(dir, options) : new PGlite(options);
  try {
    await client.exec('CREATE EXTENSION IF NOT EXISTS vector');
  } catch (err) {
    await client.close().catch(() => undefined);
    throw err;
  }
  return client;
}

const requireHere = createRequire(import.meta.url);
const BUILDING_SUFFIX = '.init-';

/**
 * Creates the cluster of a new data directory, with the extension and every migration, in a child process. Creating a
 * cluster grows PGlite's wasm memory past 550 MB and leaves ~130 MB behind in this process even once that instance is
 * closed (the memory a wasm instance grew is never handed back, and the allocator keeps what initdb freed), so a first
 * start would idle at well over twice the footprint of every later one. The child's memory goes with it. It builds in a
 * sibling directory renamed into place only once complete, so a start killed half-way leaves no half-made cluster.
 */
async function createClusterApart(dir: string): Promise<void> {
  const building = `${dir}${BUILDING_SUFFIX}${process.pid}`;
  // The data directory is locked: any other cluster being built is one a killed start left.
  for (const e of readdirSync(path.dirname(dir))) {
    if (e.startsWith(`${path.basename(dir)}${BUILDING_SUFFIX}`)) rmSync(path.join(path.dirname(dir), e), { recursive: true, force: true });
  }
  const script = `
    const [building, migrationsFolder, conf, pglite, pgvector, drizzle, migrator] = process.argv.slice(1);
    (async () => {
      const { PGlite } = await import(pglite);
      const { vector } = await import(pgvector);
      const client = new PGlite(building, { extensions: { vector }, postgresqlconf: JSON.parse(conf) });
      await client.exec('CREATE EXTENSION IF NOT EXISTS vector');
      await (await import(migrator)).migrate((await import(drizzle)).drizzle(client), { migrationsFolder });
      await client.close();
    })().catch((err) => {
      // The file system error codes down the cause chain, for the parent's Chinese message (disk full, read-only).
      const chain = [];
      for (let e = err, i = 0; e && i < 5; e = e.cause, i++) chain.push({ code: e.code, errno: e.errno, name: e.constructor && e.constructor.name });
      process.stderr.write(JSON.stringify({ message: String((err && err.message) || err), chain }));
      process.exit(1);
    });`;
  const args = [
    building,
    migrationsFolder,
    JSON.stringify(PGLITE_CONF),
    ...['@electric-sql/pglite', '@electric-sql/pglite-pgvector', 'drizzle-orm/pglite', 'drizzle-orm/pglite/migrator'].map((m) => requireHere.resolve(m)),
  ];
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
      child.on('error', reject);
      child.on('close', (code, signal) => (code === 0 ? resolve() : reject(childFailure(stderr, signal ?? `exit ${code}`))));
    });
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/** The child's failure as an error whose cause carries its file system error code, as an in-process open would. */
function childFailure(stderr: string, exit: string): Error {
  type Report = { message: string; chain: Array<{ code?: unknown; errno?: unknown; name?: unknown }> };
  const report = ((): Report | null => {
    try {
      return JSON.parse(stderr.slice(stderr.indexOf('{'))) as Report;
    } catch {
      // Killed, or failed before it could report: its output is all there is.
      return null;
    }
  })();
  const code = report?.chain.map(fsCodeOf).find(Boolean);
  return new Error(`创建内嵌数据库失败（${exit}）：${report?.message ?? (stderr.trim() || '无输出')}`, {
    cause: code ? Object.assign(new Error(code), { code }) : undefined,
  });
}

/** A data directory with no cluster yet: absent, or empty (left by an older version that made it before opening). */
function noClusterYet(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/** `databaseUrl` set: node-postgres pool. Unset: PGlite on disk under `dataDir` (or in memory when dataDir is null). */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string | null }): Promise<DbHandle> {
  if (opts.databaseUrl) {
    // node-postgres is loaded only for PostgreSQL: an embedded install never needs it.
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection cut by the server (restart, failover) must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await migratePg(drizzlePg(pool, { schema }), { migrationsFolder });
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  if (!opts.dataDir) {
    const client = await openPglite();
    const pgl = drizzlePglite(client, { schema });
    await migratePglite(pgl, { migrationsFolder });
    return { db: pgl as unknown as Db, kind: 'pglite', close: () => client.close() };
  }
  const unlock = await lockDataDir(opts.dataDir);
  const dir = path.resolve(opts.dataDir, 'pglite');
  let client: PGlite | undefined;
  try {
    mkdirSync(path.dirname(dir), { recursive: true });
    if (noClusterYet(dir)) await createClusterApart(dir);
    client = await openPglite(dir);
    const pgl = drizzlePglite(client, { schema });
    await migratePglite(pgl, { migrationsFolder });
    const opened = client;
    return {
      db: pgl as unknown as Db,
      kind: 'pglite',
      async close() {
        try {
          await opened.close();
        } finally {
          await unlock();
        }
      },
    };
  } catch (err) {
    await client?.close().catch(() => undefined);
    await unlock().catch(() => undefined);
    const cause = fsCause(err);
    throw new StartupError(
      `无法打开数据目录 ${opts.dataDir} 中的内嵌数据库（${dir}）：${cause ? describeFsError(cause) : err instanceof Error ? err.message : String(err)}。请检查磁盘空间与目录权限。`,
    );
  }
}
