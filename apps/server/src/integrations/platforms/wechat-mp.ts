// Placeholder while the real adapter is written.
export class WechatMpPublisher {
  constructor(readonly opts: { apiBase: string }) {}
}
