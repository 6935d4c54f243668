import { ImageGenDisabledError, type GeneratedImage, type ImageGenRequest, type ImageGenerator } from '../../integrations/imagegen/index.js';
import type { SourceSwitches } from '../sources/sources.service.js';

/**
 * The configured picture vendor behind the console's switch (模型与来源): `enabled` says whether one is configured,
 * `available()` whether it is also switched on right now; a picture asked for while it is off is refused, never charged.
 */
export class SwitchedImageGenerator implements ImageGenerator {
  constructor(
    private readonly inner: ImageGenerator,
    private readonly switches: Pick<SourceSwitches, 'isOn'> | null,
  ) {}

  get id() {
    return this.inner.id;
  }

  get model() {
    return this.inner.model;
  }

  get enabled() {
    return this.inner.enabled;
  }

  async available(): Promise<boolean> {
    return this.inner.enabled && (!this.switches || (await this.switches.isOn('imagegen', this.inner.id)));
  }

  async generate(req: ImageGenRequest): Promise<GeneratedImage> {
    if (!(await this.available())) throw new ImageGenDisabledError('AI pictures are switched off');
    return this.inner.generate(req);
  }
}
