import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { createCardRenderer } from '../../integrations/cards/index.js';
import type { ImageGenerator } from '../../integrations/imagegen/index.js';
import type { SourceSwitches } from '../sources/sources.service.js';
import { SwitchedImageGenerator } from './switched-imagegen.js';
import type { MaterialSearch } from '../../integrations/materials/index.js';
import type { Storage } from '../../integrations/storage/types.js';
import type { DraftRepo } from '../drafts/drafts.repo.js';
import type { FileRepo } from '../files/files.repo.js';
import type { SensitiveLexicon } from '../lexicon/lexicon.service.js';
import type { PointsPort } from '../writing/task.service.js';
import type { WritingRepo } from '../writing/writing.repo.js';
import { GraphicRepo } from './graphic.repo.js';
import { graphicRoutes } from './graphic.routes.js';
import { GraphicService } from './graphic.service.js';
import { GraphicNoteService } from './note.service.js';

export interface GraphicModuleDeps {
  db: Db;
  /** The storage uploaded images use: a card is an image like any other once rendered. */
  storage: Storage;
  files: Pick<FileRepo, 'insertFile'>;
  drafts: Pick<DraftRepo, 'insertDraft' | 'updateDraft'>;
  tasks: Pick<WritingRepo, 'task'>;
  imagegen: ImageGenerator;
  /** The console's source switches (模型与来源); without them the configured vendor is always on. */
  switches?: Pick<SourceSwitches, 'isOn'>;
  materials: MaterialSearch;
  points: PointsPort;
  lexicon: Pick<SensitiveLexicon, 'check'>;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** The storage key of a `public/` URL this storage serves, or null (`/uploads/images/x.png` -> `public/images/x.png`). */
export function publicKeyOf(storage: Storage, url: string): string | null {
  const probe = storage.publicUrl('public/__k__');
  const prefix = probe.slice(0, -'__k__'.length);
  let path = url.split(/[?#]/)[0]!;
  if (!path.startsWith(prefix) && /^https?:\/\//i.test(path) && prefix.startsWith('/')) path = new URL(path).pathname;
  if (!path.startsWith(prefix)) return null;
  const key = `public/${path.slice(prefix.length)}`;
  return /^public\/[\w./-]+$/.test(key) && !key.includes('..') ? key : null;
}

/** Graphic posts: the card renderer, the cover service and the notes (图文 tasks, cards, pictures). */
export function createGraphic(d: GraphicModuleDeps) {
  const renderer = createCardRenderer();
  const repo = new GraphicRepo(d.db);
  const graphic = new GraphicService(renderer, d.storage, d.files, d.log);
  const imagegen = new SwitchedImageGenerator(d.imagegen, d.switches ?? null);
  const notes = new GraphicNoteService({
    repo,
    tasks: d.tasks,
    drafts: d.drafts,
    files: d.files,
    renderer,
    storage: d.storage,
    imagegen,
    materials: d.materials,
    points: d.points,
    clock: d.clock,
    log: d.log,
    sensitive: async (text) => (await d.lexicon.check(text)).length > 0,
    ownImageKey: async (userId, url) => {
      const key = publicKeyOf(d.storage, url);
      return key && (await repo.ownsImage(userId, key)) ? key : null;
    },
  });
  return { renderer, graphic, notes, repo, imagegen };
}

export type GraphicModule = ReturnType<typeof createGraphic>;

/** Routes under /api. */
export async function registerGraphic(api: FastifyInstance, g: GraphicModule) {
  await api.register(graphicRoutes({ graphic: g.graphic, notes: g.notes }));
}
