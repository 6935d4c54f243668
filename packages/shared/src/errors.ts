/**
 * Every non-zero `code` the server may answer, with its Chinese message.
 * Codes from spec section 8 keep their meaning there; the 1xxx range is ours.
 */
export const ErrorCode = {
  OK: 0,
  /** Not logged in, or the session expired. */
  NOT_LOGGED_IN: 401,
  /** The session was revoked: logged out elsewhere, account deleted or disabled. */
  SESSION_REVOKED: 430,
  /** Rejected silently by the client. */
  SILENT_REJECT: 437,
  SILENT_REJECT_2: 507,
  SHOW_MSG: 905,
  SHOW_MSG_2: 912,
  SENSITIVE_CONTENT: 933,
  OPERATION_FAILED: 991,
  SERVER_ERROR: 999,
  PASSTHROUGH: 10041,

  VALIDATION: 1001,
  NOT_FOUND: 1002,
  FORBIDDEN: 1003,
  RATE_LIMITED: 1004,
  PAYLOAD_TOO_LARGE: 1005,
  NOT_CONFIGURED: 1006,
  CONFLICT: 1007,

  SMS_TOO_FREQUENT: 1101,
  SMS_DAILY_LIMIT: 1102,
  SMS_CODE_WRONG: 1103,
  SMS_CODE_EXPIRED: 1104,
  SMS_SEND_FAILED: 1105,

  WX_SCENE_EXPIRED: 1201,
  WX_NOT_SCANNED: 1202,
  WX_NOT_BOUND: 1203,
  WX_ALREADY_BOUND: 1204,
  HANDOVER_TOKEN_INVALID: 1205,
  ACCOUNT_DISABLED: 1206,

  NICKNAME_INVALID: 1301,

  POINTS_INSUFFICIENT: 1501,
  ORDER_EXPIRED: 1502,
  PAY_CHANNEL_UNAVAILABLE: 1503,
  PAY_GATEWAY_FAILED: 1504,
  CODE_INVALID: 1505,
  CODE_USED_UP: 1506,
  CODE_EXPIRED: 1507,
  CODE_ALREADY_REDEEMED: 1508,
  ITEM_UNAVAILABLE: 1509,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export const errorMessages: Record<number, string> = {
  [ErrorCode.NOT_LOGGED_IN]: '请先登录',
  [ErrorCode.SESSION_REVOKED]: '登录状态已失效，请重新登录',
  [ErrorCode.SENSITIVE_CONTENT]: '描述词存在敏感内容',
  [ErrorCode.OPERATION_FAILED]: '操作失败',
  [ErrorCode.SERVER_ERROR]: '服务器开小差中，请稍后再试',
  [ErrorCode.VALIDATION]: '参数错误',
  [ErrorCode.NOT_FOUND]: '内容不存在',
  [ErrorCode.FORBIDDEN]: '无权操作',
  [ErrorCode.RATE_LIMITED]: '请求过于频繁，请稍后再试',
  [ErrorCode.PAYLOAD_TOO_LARGE]: '请求内容过大',
  [ErrorCode.NOT_CONFIGURED]: '该功能尚未配置',
  [ErrorCode.CONFLICT]: '操作冲突，请刷新后重试',
  [ErrorCode.SMS_TOO_FREQUENT]: '验证码发送过于频繁，请60秒后再试',
  [ErrorCode.SMS_DAILY_LIMIT]: '今日验证码发送次数已达上限，请明天再试',
  [ErrorCode.SMS_CODE_WRONG]: '验证码错误',
  [ErrorCode.SMS_CODE_EXPIRED]: '验证码已失效，请重新获取',
  [ErrorCode.SMS_SEND_FAILED]: '短信发送失败，请稍后再试',
  [ErrorCode.WX_SCENE_EXPIRED]: '二维码已过期，请刷新后重新扫码',
  [ErrorCode.WX_NOT_SCANNED]: '请先使用微信扫码',
  [ErrorCode.WX_NOT_BOUND]: '该微信尚未绑定手机号，请先绑定',
  [ErrorCode.WX_ALREADY_BOUND]: '该微信已绑定其他账号',
  [ErrorCode.HANDOVER_TOKEN_INVALID]: '登录凭证无效或已使用',
  [ErrorCode.ACCOUNT_DISABLED]: '账号已停用',
  [ErrorCode.NICKNAME_INVALID]: '昵称不符合要求',
  [ErrorCode.POINTS_INSUFFICIENT]: '积分不足',
  [ErrorCode.ORDER_EXPIRED]: '订单已过期，请重新下单',
  [ErrorCode.PAY_CHANNEL_UNAVAILABLE]: '该支付方式暂未开通',
  [ErrorCode.PAY_GATEWAY_FAILED]: '支付服务暂时不可用，请稍后再试',
  [ErrorCode.CODE_INVALID]: '兑换码不存在或已停用',
  [ErrorCode.CODE_USED_UP]: '兑换码已被领完',
  [ErrorCode.CODE_EXPIRED]: '兑换码已过期',
  [ErrorCode.CODE_ALREADY_REDEEMED]: '你已兑换过该兑换码',
  [ErrorCode.ITEM_UNAVAILABLE]: '该套餐已下架',
};
