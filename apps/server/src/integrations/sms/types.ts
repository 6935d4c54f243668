/** Sends a login verification code by SMS. */
export interface SmsSender {
  /** Vendor id shown at start-up and in health output. */
  readonly name: 'outbox' | 'aliyun' | 'tencent';
  /** True when messages do not leave this machine. */
  readonly sandbox: boolean;
  /** Resolves once the vendor accepted the message; rejects with SmsSendError otherwise. */
  sendCode(phone: string, code: string): Promise<void>;
}

/** The vendor refused or could not be reached. `vendorCode` is the vendor's own error code, for logs only. */
export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly vendorCode?: string,
  ) {
    super(message);
    this.name = 'SmsSendError';
  }
}
