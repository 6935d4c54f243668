import { ResvgCardRenderer } from './resvg.js';
import type { CardRenderer } from './types.js';

/** Card rendering has one implementation (it is ours); the factory keeps the integration shape of the other kinds. */
export function createCardRenderer(): CardRenderer {
  return new ResvgCardRenderer();
}

export type { CardRenderer, CardInput, CardTemplateInfo, CardThemeInfo } from './types.js';
export { CardInputError } from './types.js';
