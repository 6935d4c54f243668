import type { Config } from '../../config.js';
import { MpWechatLogin } from './mp.js';
import { SandboxWechatLogin } from './sandbox.js';
import type { WechatLogin } from './types.js';

export function createWechatLogin(config: Config, publicUrl: string): WechatLogin {
  if (config.WECHAT_LOGIN_PROVIDER === 'mp') {
    return new MpWechatLogin({
      appId: config.WECHAT_MP_APP_ID!,
      appSecret: config.WECHAT_MP_APP_SECRET!,
      apiBase: config.WECHAT_API_BASE,
      qrImageBase: config.WECHAT_QR_IMAGE_BASE,
    });
  }
  return new SandboxWechatLogin(publicUrl);
}
