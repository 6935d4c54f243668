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
  /** The process is shutting down: a request that arrived while it drains (retry: another process answers). */
  SERVICE_UNAVAILABLE: 1008,

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

  /** Publishing (platform accounts and publish jobs). */
  PLATFORM_UNSUPPORTED: 1701,
  PLATFORM_LOGIN_EXPIRED: 1702,
  PLATFORM_NOT_CONFIRMED: 1703,
  PLATFORM_BIND_FAILED: 1704,
  PLATFORM_ACCOUNT_EXPIRED: 1705,
  PUBLISH_LIMIT: 1706,
  PLATFORM_FAILED: 1707,
  PLATFORM_CAPTCHA: 1708,

  FILE_TYPE_MISMATCH: 1601,
  FILE_TYPE_UNSUPPORTED: 1602,
  FILE_TOO_LARGE: 1603,
  FILE_READ_FAILED: 1604,
  UPLOAD_FAILED: 1605,
  QUOTE_FILE_TYPE_UNSUPPORTED: 1606,
  SEARCH_NOT_CONFIGURED: 1610,
  MODEL_UNAVAILABLE: 1611,
  AI_CONTENT_FILTERED: 1612,
  AI_RATE_LIMITED: 1613,
  AI_UPSTREAM_FAILED: 1614,
  TASK_INTERRUPTED: 1615,
  /**
   * Not a failure: on a finished task (beside its draft), the model stopped at its length limit even after being asked to
   * go on, so the text may be incomplete; the task's points were refunded.
   */
  AI_OUTPUT_TRUNCATED: 1616,
  /** 知识库 per-user document count or bytes used up. */
  KNOWLEDGE_QUOTA_EXCEEDED: 1620,

  /** Operators' console (/api/admin): not an operator, or the role is below what the route needs. */
  ADMIN_FORBIDDEN: 1801,
  /** The console session is idle or old: re-enter an SMS code (POST /api/admin/reauth). */
  ADMIN_REAUTH_REQUIRED: 1802,
  /** A refund the order cannot take (unpaid, more than what is left, gateway refused). */
  REFUND_REFUSED: 1803,
  /** The agent needs a real model; with only the offline writer it refuses instead of pretending. */
  AGENT_NO_MODEL: 1630,
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
  [ErrorCode.SERVICE_UNAVAILABLE]: '服务正在重启，请稍后再试',
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
  [ErrorCode.PLATFORM_UNSUPPORTED]: '暂不支持该平台',
  [ErrorCode.PLATFORM_LOGIN_EXPIRED]: '登录二维码已过期，请重新获取',
  [ErrorCode.PLATFORM_NOT_CONFIRMED]: '请先在手机上扫码并确认登录',
  [ErrorCode.PLATFORM_BIND_FAILED]: '绑定账号失败',
  [ErrorCode.PLATFORM_ACCOUNT_EXPIRED]: '账号登录已失效，请重新扫码绑定',
  [ErrorCode.PUBLISH_LIMIT]: '内容不符合平台发布要求',
  [ErrorCode.PLATFORM_FAILED]: '平台暂时无法访问，请稍后再试',
  [ErrorCode.PLATFORM_CAPTCHA]: '平台要求安全验证，请重新登录该账号',
  [ErrorCode.FILE_TYPE_MISMATCH]: '文件类型不匹配',
  [ErrorCode.FILE_TYPE_UNSUPPORTED]: '请上传jpg、jpeg、png、gif格式的文件',
  [ErrorCode.FILE_TOO_LARGE]: '请上传20MB以内的文件',
  [ErrorCode.FILE_READ_FAILED]: '文件读取失败',
  [ErrorCode.UPLOAD_FAILED]: '上传图片失败',
  [ErrorCode.QUOTE_FILE_TYPE_UNSUPPORTED]: '请上传docx、pdf、txt、md格式的文件',
  [ErrorCode.SEARCH_NOT_CONFIGURED]: '未配置联网搜索服务',
  [ErrorCode.MODEL_UNAVAILABLE]: '所选模型不可用',
  [ErrorCode.AI_CONTENT_FILTERED]: '生成内容未通过安全审核，请调整描述后重试',
  [ErrorCode.AI_RATE_LIMITED]: 'AI服务繁忙，请稍后再试',
  [ErrorCode.AI_UPSTREAM_FAILED]: 'AI服务暂时不可用，请稍后再试',
  [ErrorCode.TASK_INTERRUPTED]: '写作任务多次中断，已退还积分',
  [ErrorCode.AI_OUTPUT_TRUNCATED]: '模型输出达到长度上限，文章可能不完整',
  [ErrorCode.KNOWLEDGE_QUOTA_EXCEEDED]: '知识库空间已满，请删除部分文档后再试',
  [ErrorCode.ADMIN_FORBIDDEN]: '无权限访问管理后台',
  [ErrorCode.ADMIN_REAUTH_REQUIRED]: '需要重新验证：请输入短信验证码',
  [ErrorCode.REFUND_REFUSED]: '无法退款',
  [ErrorCode.AGENT_NO_MODEL]: '智能体需要配置AI模型，当前未配置。可以使用写作、选题、发布向导完成同样的事',
};

/**
 * The data of a 933 reply: which lexicon words were found, in which input (a label the user knows: 写作内容, 标题, ...),
 * and what to do about each, so the sensitive-content modal can say more than the 3 s warning.
 */
export interface SensitiveContentData {
  words: string[];
  where: string;
  suggestions: string[];
}

export const sensitiveContentData = (words: string[], where: string): SensitiveContentData => ({
  words,
  where,
  suggestions: words.map((w) => `删除或改写「${w}」后重试`),
});
