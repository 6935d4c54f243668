import { ImageGenDisabledError, type GeneratedImage, type ImageGenerator } from './types.js';

/** The embedded default: no AI pictures. It never pretends to make one; the card renderer is always there instead. */
export class NoImageGenerator implements ImageGenerator {
  readonly id = 'none';
  readonly model = null;
  readonly enabled = false;

  async generate(): Promise<GeneratedImage> {
    throw new ImageGenDisabledError('image generation is not configured (IMAGEGEN_PROVIDER=none)');
  }
}
