import { z } from 'zod';
import { phoneSchema, smsCodeSchema } from './common.js';
import { userProfileSchema } from './user.js';

export const sendMsgQuery = z.object({ phone: phoneSchema });

export const loginResultSchema = z.object({
  tokenName: z.string(),
  tokenValue: z.string(),
  user: userProfileSchema,
});
export type LoginResult = z.infer<typeof loginResultSchema>;

const optionalTag = (label: string) => z.string().trim().max(64, `${label}过长`).optional();

/** What /auth/send/msg answers: when a new code may be asked for, and whether the code went to the sandbox outbox. */
export const sendMsgReply = z.object({ resendAfterSeconds: z.number(), sandbox: z.boolean() });
export type SendMsgReply = z.infer<typeof sendMsgReply>;

export const doLogin0Body = z.object({
  phone: phoneSchema,
  code: smsCodeSchema,
  channelId: optionalTag('渠道号 channelId'),
  invitationCode: optionalTag('邀请码 invitationCode'),
});

export const wxQrcodeSchema = z.object({ scene: z.string(), url: z.string(), expireSeconds: z.number().int(), sandbox: z.boolean() });
export type WxQrcode = z.infer<typeof wxQrcodeSchema>;
export const sceneQuery = z.object({ scene: z.string({ error: '请提供 scene' }).trim().min(8, 'scene 无效').max(64, 'scene 无效') });
export const wxScanStateSchema = z.object({
  status: z.enum(['waiting', 'scanned', 'expired', 'used']),
  openid: z.string().nullable(),
});
export type WxScanState = z.infer<typeof wxScanStateSchema>;

export const doLoginWxBody = z.object({
  scene: z.string({ error: '请提供 scene' }).trim().min(8, 'scene 无效').max(64, 'scene 无效'),
  /** Given together when the WeChat identity has no account yet: binds it to this phone. */
  phone: phoneSchema.optional(),
  code: smsCodeSchema.optional(),
  channelId: optionalTag('渠道号 channelId'),
  invitationCode: optionalTag('邀请码 invitationCode'),
});
export const wxBindBody = z.object({ scene: z.string({ error: '请提供 scene' }).trim().min(8, 'scene 无效').max(64, 'scene 无效') });
export const isBindSchema = z.object({ isBind: z.boolean() });
/** Without a scene it asks about the logged-in account. */
export const isBindQuery = z.object({ scene: sceneQuery.shape.scene.optional() });

export const sparkLoginBody = z.object({
  accessToken: z.string({ error: '请提供 accessToken' }).trim().min(10, 'accessToken 无效').max(1024, 'accessToken 无效'),
  scene: z.string().trim().max(64, 'scene 过长').optional(),
});
export const handoverTokenSchema = z.object({ accessToken: z.string(), expireAt: z.string() });

export const logoutQuery = z.object({ device: z.string().trim().max(64, 'device 过长').optional() });
export const isRegisterQuery = z.object({
  phoneOrOpenId: z.string({ error: '请提供 phoneOrOpenId' }).trim().min(1, 'phoneOrOpenId 不能为空').max(64, 'phoneOrOpenId 过长'),
});
export const deleteAccountBody = z.object({ code: smsCodeSchema });
export const smsOutboxItemSchema = z.object({ phone: z.string(), text: z.string(), code: z.string(), sentAt: z.string() });

/** A login device: one live session of the current user. */
export const loginDeviceSchema = z.object({
  id: z.number().int(),
  /** The session making this request. */
  current: z.boolean(),
  device: z.string().nullable(),
  client: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
});
export type LoginDevice = z.infer<typeof loginDeviceSchema>;
export const sessionRevokeBody = z.object({ id: z.coerce.number({ error: '设备 id 必须是数字' }).int('设备 id 必须是整数').positive('设备 id 必须是正整数') });
