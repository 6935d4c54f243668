import { MaterialDisabledError, type MaterialPage, type MaterialSearch } from './types.js';

/** The embedded default: no stock photos. It never fakes results; cards, uploads and the image library remain. */
export class NoMaterialSearch implements MaterialSearch {
  readonly id = 'none';
  readonly enabled = false;

  async search(): Promise<MaterialPage> {
    throw new MaterialDisabledError('material search is not configured (MATERIALS_PROVIDER=none)');
  }

  async download(): Promise<never> {
    throw new MaterialDisabledError('material search is not configured (MATERIALS_PROVIDER=none)');
  }
}
