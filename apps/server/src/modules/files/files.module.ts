import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { LocalStorage } from '../../integrations/storage/local.js';
import { createStorage } from '../../integrations/storage/index.js';
import type { Storage } from '../../integrations/storage/types.js';
import { FileRepo } from './files.repo.js';
import { fileRoutes } from './files.routes.js';
import { FileService } from './files.service.js';
import type { UserService } from '../user/user.service.js';

export interface FilesModuleDeps {
  db: Db;
  log: FastifyBaseLogger;
  /** null in tests: files go to a temporary directory removed on close. */
  dataDir: string | null;
}

/**
 * Uploads: the storage (local directory or S3) and the user's files in it, uploaded images and quoted documents. The
 * storage also serves publishing, graphic posts, feedback screenshots and knowledge files.
 */
export function createFiles(config: Config, d: FilesModuleDeps) {
  const s3 = config.STORAGE_PROVIDER === 's3';
  const tempDir = d.dataDir || s3 ? null : mkdtempSync(path.join(tmpdir(), 'inkstone-files-'));
  const storage: Storage = s3 ? createStorage(config) : new LocalStorage(d.dataDir ?? tempDir!);
  const repo = new FileRepo(d.db);
  const files = new FileService(repo, storage, d.log);
  return {
    storage,
    repo,
    files,
    close() {
      if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    },
  };
}

export type FilesModule = ReturnType<typeof createFiles>;

/** Routes under /api. */
export async function registerFiles(api: FastifyInstance, f: FilesModule, users: UserService) {
  await api.register(fileRoutes({ files: f.files, users }));
}

/** Uploaded images under /uploads/ (public keys only; quoted documents are never served). */
export async function registerUploads(app: FastifyInstance, f: FilesModule) {
  // With S3 the bucket serves public objects itself.
  if (!(f.storage instanceof LocalStorage)) return;
  await app.register(fastifyStatic, {
    root: f.storage.publicRoot,
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    setHeaders: (reply) => {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
    },
  });
}
