import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { createCardRenderer } from '../../integrations/cards/index.js';
import type { Storage } from '../../integrations/storage/types.js';
import type { WritingRepo } from '../writing/writing.repo.js';
import { graphicRoutes } from './graphic.routes.js';
import { GraphicService } from './graphic.service.js';

export interface GraphicModuleDeps {
  /** The storage uploaded images use: a card is an image like any other once rendered. */
  storage: Storage;
  files: Pick<WritingRepo, 'insertFile'>;
  log: FastifyBaseLogger;
}

/** Graphic posts: the card renderer and the cover service. */
export function createGraphic(d: GraphicModuleDeps) {
  const renderer = createCardRenderer();
  const graphic = new GraphicService(renderer, d.storage, d.files, d.log);
  return { renderer, graphic };
}

export type GraphicModule = ReturnType<typeof createGraphic>;

/** Routes under /api. */
export async function registerGraphic(api: FastifyInstance, g: GraphicModule) {
  await api.register(graphicRoutes({ graphic: g.graphic }));
}
