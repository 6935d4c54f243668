import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { z } from 'zod';
import { escapeHtml, sandboxPhonePage } from '../../html/page.js';
import { sha256Hex } from '../../security/hashing.js';
import type { WechatLogin } from './types.js';

/**
 * Embedded default for WeChat login: the QR encodes our own sandbox scan page, which plays the
 * user's phone. Opening it (from a phone on the LAN or another browser tab) and confirming records
 * the scan just as the Official Account event push would.
 */
export class SandboxWechatLogin implements WechatLogin {
  readonly name = 'sandbox' as const;
  readonly sandbox = true;

  constructor(private readonly publicUrl: string) {}

  scanPageUrl(scene: string) {
    return `${this.publicUrl}/api/dev/wx-sandbox/scan?scene=${encodeURIComponent(scene)}`;
  }

  async createQr(scene: string, expireSeconds: number) {
    const imageUrl = await QRCode.toDataURL(this.scanPageUrl(scene), { margin: 1, width: 240 });
    return { imageUrl, expireSeconds };
  }
}

/** Sandbox identities map to stable fake openids, so the same name logs in the same WeChat user. */
export const sandboxOpenid = (identity: string) => `sbx_${sha256Hex(`wx-sandbox:${identity}`).slice(0, 24)}`;

const sceneParam = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'scene 无效');

export function wechatSandboxRoutes(recordScan: (scene: string, openid: string) => Promise<boolean>) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const page = (body: string) =>
      sandboxPhonePage({
        title: '微信扫码（沙箱）',
        simulates: '这是模拟的微信手机端，不会连接真实微信。',
        css: 'button{background:#07c160;color:#fff;border:0;border-radius:6px;padding:10px 20px;font-size:16px}\ninput{padding:8px;font-size:15px;width:100%;box-sizing:border-box;margin:8px 0 16px}',
        body,
      });

    app.get(
      '/dev/wx-sandbox/scan',
      {
        schema: { hide: true, querystring: z.object({ scene: sceneParam }) },
      },
      async (req, reply) => {
        reply.type('text/html; charset=utf-8');
        return page(`<h2>砚 请求使用你的微信账号登录</h2>
<form method="post" action="/api/dev/wx-sandbox/scan"><input type="hidden" name="scene" value="${escapeHtml(req.query.scene)}">
<label>模拟的微信用户<input name="identity" value="沙箱微信用户" maxlength="32"></label>
<button type="submit">确认登录</button></form>`);
      },
    );

    app.post(
      '/dev/wx-sandbox/scan',
      {
        schema: { hide: true, body: z.object({ scene: sceneParam, identity: z.string().trim().min(1, '请填写模拟的微信用户').max(32, '模拟的微信用户最多32个字符') }) },
      },
      async (req, reply) => {
        const recorded = await recordScan(req.body.scene, sandboxOpenid(req.body.identity));
        reply.type('text/html; charset=utf-8');
        return page(recorded ? '<h2>已确认登录</h2><p>请回到电脑上的页面。</p>' : '<h2>二维码已失效</h2><p>请在电脑上刷新二维码后重新扫码。</p>');
      },
    );
  };
}
