/**
 * AI picture generation (graphic posts): one interface over OpenAI-compatible image endpoints (DALL-E, gpt-image,
 * Qwen-image, Kolors). An implementation returns raw bytes; checking, cropping and storing them is the module's.
 */
export interface ImageGenRequest {
  prompt: string;
  signal?: AbortSignal;
}

export interface GeneratedImage {
  bytes: Buffer;
  /** Revised prompt when the vendor rewrote it (DALL-E 3). */
  revisedPrompt?: string;
}

export interface ImageGenerator {
  /** 'none' | 'openai'. */
  readonly id: string;
  /** Vendor model, for logs and the status reply. */
  readonly model: string | null;
  /** False for `none`: callers must not charge for or offer AI pictures. */
  readonly enabled: boolean;
  generate(req: ImageGenRequest): Promise<GeneratedImage>;
}

export class ImageGenError extends Error {
  constructor(
    message: string,
    /** Vendor code or HTTP status, for logs only. */
    readonly vendorCode?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
/** AI pictures are off (provider `none`). */
export class ImageGenDisabledError extends ImageGenError {}
/** The vendor refused the prompt or the picture (safety system). */
export class ImageGenContentFilteredError extends ImageGenError {}
export class ImageGenRateLimitedError extends ImageGenError {}
/** Network, timeouts, 5xx, a reply without a picture. */
export class ImageGenUpstreamError extends ImageGenError {}
