/**
 * Material search (graphic posts): stock photos a card may take as its picture. One interface over stock-photo APIs
 * (Pexels' protocol today); an implementation lists photos and returns the bytes of one, fetched through the SSRF-safe
 * client. Checking, cropping and storing them is the module's.
 */
export interface MaterialPhoto {
  id: string;
  width: number;
  height: number;
  thumbUrl: string;
  /** The large picture the card is made from (fetched by the server only). */
  imageUrl: string;
  alt: string;
  author: string;
  authorUrl: string;
  pageUrl: string;
}

export interface MaterialPage {
  page: number;
  total: number;
  items: MaterialPhoto[];
}

export interface MaterialSearch {
  /** 'none' | 'pexels'. */
  readonly id: string;
  /** False for `none`: the editor says material search is off and never fakes results. */
  readonly enabled: boolean;
  search(query: string, page: number, signal?: AbortSignal): Promise<MaterialPage>;
  /** The photo's large picture, by the id a search listed. */
  download(photoId: string, signal?: AbortSignal): Promise<{ bytes: Buffer; photo: MaterialPhoto }>;
}

export class MaterialError extends Error {
  constructor(
    message: string,
    /** Vendor code or HTTP status, for logs only. */
    readonly vendorCode?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
export class MaterialDisabledError extends MaterialError {}
export class MaterialNotFoundError extends MaterialError {}
export class MaterialRateLimitedError extends MaterialError {}
/** Network, timeouts, 5xx, a reply not in the protocol, a picture URL the safe client refused. */
export class MaterialUpstreamError extends MaterialError {}
