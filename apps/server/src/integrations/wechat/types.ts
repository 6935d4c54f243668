/** WeChat QR login: makes a QR code for a scene; the scan arrives later as an event that names the openid. */
export interface WechatLogin {
  readonly name: 'sandbox' | 'mp';
  readonly sandbox: boolean;
  /** Creates the QR for `scene`; `imageUrl` is what the login modal shows (an https URL or a data: URL). */
  createQr(scene: string, expireSeconds: number): Promise<{ imageUrl: string; expireSeconds: number }>;
}

export class WechatApiError extends Error {
  constructor(
    message: string,
    readonly errcode?: number,
  ) {
    super(message);
    this.name = 'WechatApiError';
  }
}
