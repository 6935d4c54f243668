import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe } from 'vitest';
import { openDatabase, type DbHandle } from '../db/client.js';

export type TestDbKind = 'pglite' | 'postgres';

/** Which databases the integration suite runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const testDbKinds: TestDbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * A suite on every test database (`name` holds `%s` for the kind). Without TEST_DATABASE_URL the PostgreSQL copy is
 * still declared, as skipped and named for the missing variable, so a run without PostgreSQL never reads as a full pass.
 */
export function describeOnDatabases(name: string, suite: (kind: TestDbKind) => void): void {
  describe(name.replace('%s', 'pglite'), () => suite('pglite'));
  describeNeeding(['TEST_DATABASE_URL'], name.replace('%s', 'postgres'), () => suite('postgres'));
}

/**
 * A suite that needs outside services (PostgreSQL, Redis) named by test variables; it gets their values in order.
 * With one unset it is declared as skipped, its name saying which variable is missing, never silently absent.
 */
export function describeNeeding(variables: string[], name: string, suite: (...values: string[]) => void): void {
  const missing = variables.filter((v) => !process.env[v]);
  // Declared either way, so a run without the variables lists the suite as skipped and says which one is missing.
  const title = missing.length === 0 ? name : `${name} (skipped: ${missing.join(' and ')} not set)`;
  describe.skipIf(missing.length > 0)(title, () => suite(...variables.map((v) => process.env[v] ?? '')));
}

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
