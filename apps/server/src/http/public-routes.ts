/**
 * The one place that says which routes work without logging in. Every route not listed here requires a live
 * session (the auth guard answers 401/430 before the body is read); adding a route therefore never opens it by
 * accident. http/public-routes.test.ts calls every registered route without a token to hold this to account.
 */
export type AuthMode = 'required' | 'optional' | 'public';

export interface PublicRoute {
  /** HTTP method; HEAD follows GET. */
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | '*';
  /** The route's URL pattern as registered (`/api/pay/notify/:gateway`); a trailing `*` matches a prefix. */
  url: string;
  /** 'public': the session is never read. 'optional': attached when the token is good, never required. */
  auth: 'public' | 'optional';
  why: string;
}

export const publicRoutes: readonly PublicRoute[] = [
  // Logging in and the login state itself.
  { method: 'GET', url: '/api/auth/send/msg', auth: 'public', why: '发送登录验证码' },
  { method: 'POST', url: '/api/auth/doLogin0', auth: 'public', why: '手机号登录' },
  { method: 'GET', url: '/api/auth/isRegister', auth: 'public', why: '登录框判断是否已注册' },
  { method: 'GET', url: '/api/wx/qrcode/url', auth: 'public', why: '微信扫码登录二维码' },
  { method: 'GET', url: '/api/wx/qrcode/openid', auth: 'public', why: '轮询扫码结果' },
  { method: 'POST', url: '/api/auth/v2/doLoginWx', auth: 'public', why: '微信扫码登录' },
  { method: 'POST', url: '/api/auth/spark/login', auth: 'public', why: '用一次性交接令牌登录' },
  { method: 'GET', url: '/api/auth/isLogin', auth: 'optional', why: '无凭证时答 false；凭证无效时由路由自己答 401/430' },
  { method: 'GET', url: '/api/auth/isbind', auth: 'optional', why: '扫码绑定状态，登录前后都会问' },
  { method: 'GET', url: '/api/auth/logout', auth: 'optional', why: '凭证已失效时退出也要成功' },

  // Anonymous pages of the web app read these before login.
  { method: 'GET', url: '/api/user/global-setting', auth: 'public', why: '首页全局设置' },
  { method: 'GET', url: '/api/app/release', auth: 'public', why: '版本更新说明与下载地址' },
  { method: 'GET', url: '/api/features', auth: 'public', why: '功能开关' },
  { method: 'GET', url: '/api/features/:clientKey', auth: 'public', why: '功能开关' },
  { method: 'POST', url: '/api/eval/:clientKey', auth: 'optional', why: '功能开关远程评估，登录后按服务端属性定向' },
  { method: 'GET', url: '/api/vip/subscribe/category', auth: 'public', why: '会员价格页' },
  { method: 'GET', url: '/api/vip/score/bundle/category', auth: 'public', why: '积分包价格页' },
  { method: 'GET', url: '/api/vip/score/bundle/list', auth: 'public', why: '积分包价格页' },
  { method: 'GET', url: '/api/vip/score/point/consume', auth: 'public', why: '积分消耗规则' },
  { method: 'GET', url: '/api/vip/activity/config', auth: 'public', why: '活动配置' },
  { method: 'GET', url: '/api/contest/activity/timestamp', auth: 'public', why: '活动时间' },
  { method: 'GET', url: '/api/activity/homepage/config', auth: 'optional', why: '首页活动，登录后个性化' },
  { method: 'GET', url: '/api/writing/style/home/v2', auth: 'optional', why: '首页写作风格，登录后个性化' },
  { method: 'GET', url: '/api/writing/ability/types', auth: 'optional', why: '首页写作能力（文体）列表' },
  { method: 'GET', url: '/api/mpTopic/v2/festival', auth: 'optional', why: '节日选题' },

  // Client telemetry is accepted before login too; the user is attached when known.
  { method: 'GET', url: '/api/user/event/report', auth: 'optional', why: '使用事件上报' },
  { method: 'POST', url: '/api/engine/v2/log/collect', auth: 'optional', why: '客户端日志' },
  { method: 'GET', url: '/api/engine/log/collect/*', auth: 'optional', why: '客户端日志' },

  // The SSE stream cannot send a header from EventSource: the route checks its own credential (query) by hand.
  { method: 'GET', url: '/api/mp/task/stream/:taskId', auth: 'public', why: 'EventSource 无法带请求头，路由自行校验凭证' },

  // Callers that are not our users: payment gateways (signature checked), sandboxes and the developer outbox.
  { method: 'POST', url: '/api/pay/notify/:gateway', auth: 'public', why: '支付回调，验签' },
  { method: 'POST', url: '/api/pay/refund-notify/:gateway', auth: 'public', why: '退款回调，验签（与支付回调同样的签名与解密）' },
  { method: '*', url: '/api/pay/sandbox/checkout', auth: 'public', why: '沙箱收银台（手机扫码打开）' },
  { method: '*', url: '/api/dev/wx-sandbox/scan', auth: 'public', why: '微信扫码沙箱' },
  { method: '*', url: '/api/wx/mp/event', auth: 'public', why: '微信公众号事件推送，验签' },
  { method: 'GET', url: '/api/dev/sms-outbox', auth: 'public', why: '开发用短信收件箱（仅 outbox 模式注册）' },
  { method: 'GET', url: '/api/dev/sms-outbox/page', auth: 'public', why: '开发用短信收件箱页面' },

  // Not the API: docs, health, the web app's files, uploaded images and the sandbox creator site (own cookie login).
  { method: 'GET', url: '/api/docs', auth: 'public', why: '接口文档' },
  { method: 'GET', url: '/api/docs/*', auth: 'public', why: '接口文档' },
  { method: 'GET', url: '/healthz', auth: 'public', why: '健康检查' },
  { method: 'GET', url: '/readyz', auth: 'public', why: '就绪检查（数据库与 Redis）' },
  { method: 'GET', url: '/uploads/*', auth: 'public', why: '公开图片' },
  { method: '*', url: '/sandbox-platform/*', auth: 'public', why: '沙箱创作者平台，自带登录' },
];

/** Web app files (`/`, `/index.html`, `/assets/…`, `/logo.svg`): everything outside the API that GET can fetch. */
export const isWebFile = (method: string, url: string) =>
  (method === 'GET' || method === 'HEAD') && !url.startsWith('/api/') && url !== '/api' && !url.startsWith('/publish-api/') && !url.includes(':');

/** The list entry that opens this route, if any. */
export function publicRuleFor(method: string, url: string): PublicRoute | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  return publicRoutes.find((r) => (r.method === '*' || r.method === m) && (r.url.endsWith('*') ? url.startsWith(r.url.slice(0, -1)) : r.url === url));
}

/** The auth mode of a registered route: the list's, or 'required'. */
export function authModeOf(method: string, url: string): AuthMode {
  const rule = publicRuleFor(method, url);
  if (rule) return rule.auth;
  return isWebFile(method, url) ? 'public' : 'required';
}
