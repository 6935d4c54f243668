import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DbHandle } from '../db/client.js';

export type TestDbKind = 'pglite' | 'postgres';

/** Which databases the integration suite runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const testDbKinds: TestDbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** A fresh, migrated database: in-memory PGlite, or a new database on the test PostgreSQL server. */
export async function openTestDatabase(kind: TestDbKind): Promise<DbHandle & { url?: string }> {
  if (kind === 'pglite') return openDatabase({ dataDir: null });
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  return openFreshPostgres(adminUrl, 't');
}

/** A new, migrated database on the server at `adminUrl`, dropped again on close (tests and benchmarks). */
export async function openFreshPostgres(adminUrl: string, prefix: string): Promise<DbHandle & { url: string }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
  return {
    ...handle,
    url: url.toString(),
    async close() {
      await handle.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
