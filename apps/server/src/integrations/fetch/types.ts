/**
 * Outbound fetch of URLs a user typed or pasted (article images, `<img src>` in drafts). Every such fetch goes
 * through one client that refuses our own network (loopback, private, link-local, metadata addresses), follows
 * redirects itself so each hop is checked again, and caps time and size. Vendor APIs whose base URL the operator
 * configures (SMS, payment, LLM, S3) are not user input and do not use it.
 */

export interface SafeFetchOptions {
  /** Response bytes allowed, counted while streaming (default 10 MB). */
  maxBytes?: number;
  /** Whole fetch including redirects and body (default 15 s). */
  timeoutMs?: number;
  /** Redirect hops followed, each one re-validated (default 5). */
  maxRedirects?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface FetchedBody {
  /** The URL finally answered, after redirects. */
  url: string;
  status: number;
  /** Lower-case media type without parameters; '' when the server sent none. */
  contentType: string;
  body: Buffer;
}

export interface FetchedImage extends FetchedBody {
  /** From the magic bytes, not the header. */
  mimeType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  ext: 'png' | 'jpg' | 'gif' | 'webp';
}

export type FetchRefusal = 'invalid_url' | 'scheme' | 'private_address' | 'dns' | 'too_many_redirects' | 'too_large' | 'timeout' | 'http_status' | 'content_type' | 'network';

/**
 * Why a fetch did not produce a body. `message` is Chinese and names no internal address, so callers can prefix it
 * ("第1张图片" + message) and show it to the user. `transient` says whether trying again later may help.
 */
export class FetchRefusedError extends Error {
  constructor(
    readonly reason: FetchRefusal,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'FetchRefusedError';
  }

  get transient(): boolean {
    return this.reason === 'timeout' || this.reason === 'network' || this.reason === 'dns' || (this.reason === 'http_status' && (this.status ?? 0) >= 500);
  }
}

export interface SafeFetcher {
  /** GET with every check; any status other than 2xx is a refusal. */
  get(url: string, opts?: SafeFetchOptions): Promise<FetchedBody>;
  /** GET of an image: `image/*` content type and png/jpeg/gif/webp magic bytes, 10 MB unless told otherwise. */
  image(url: string, opts?: SafeFetchOptions): Promise<FetchedImage>;
  /** What would refuse `url` before any connection (scheme, literal inner address), or null; no DNS, no I/O. */
  check(url: string): FetchRefusedError | null;
  close(): Promise<void>;
}
