import type { Config } from './config.js';
import { activeSandboxes } from './sandbox-guard.js';

export interface BannerFacts {
  url: string;
  database: string;
  /** Online search configured (writing module). */
  searchEnabled: boolean;
  demo: boolean;
}

/** What `npm start` prints once listening: Chinese first, English after; sandboxes named in Chinese. */
export function startBanner(
  config: Pick<Config, 'SMS_PROVIDER' | 'WECHAT_LOGIN_PROVIDER' | 'PAYMENT_PROVIDER' | 'PUBLISH_PLATFORMS' | 'LLM_MODELS' | 'TRENDS_SOURCES'> &
    Partial<Pick<Config, 'EMBEDDINGS_BASE_URL'>>,
  f: BannerFacts,
): string {
  const lines = ['', `  砚 已启动：${f.url}（数据库：${f.database}）`, `  Inkstone is running at ${f.url} (database: ${f.database})`];
  const stand = activeSandboxes(config).map((s) =>
    config.SMS_PROVIDER === 'outbox' && s.name === '短信发件箱' ? `${s.name}：验证码见日志和 ${f.url}/api/dev/sms-outbox/page` : s.name,
  );
  if (config.LLM_MODELS.length === 0) stand.push('离线写作助手（未配置大模型 LLM_MODELS，不是 AI）');
  if (!f.searchEnabled) stand.push('联网搜索未配置（SEARCH_PROVIDER）');
  if (!config.EMBEDDINGS_BASE_URL) stand.push('知识库向量检索未开启，仅全文检索（未配置 EMBEDDINGS_BASE_URL）');
  if (!/(^|,)\s*(weibo|zhihu|baidu|toutiao|bilibili|feed)\b/i.test(config.TRENDS_SOURCES)) stand.push('热点选题为内置快照，非实时（未配置 TRENDS_SOURCES）');
  if (stand.length) {
    lines.push(f.demo ? '  演示环境：以下为内置沙箱，切勿用于真实用户：' : '  正在使用内置沙箱（数据不离开本机）：');
    for (const s of stand) lines.push(`    - ${s}`);
  }
  lines.push(`  接口文档：${f.url}/api/docs`, '');
  return lines.join('\n');
}
