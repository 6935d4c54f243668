import type { DataAccounts, DataOverview, DataSeries, DataTop } from '@inkstone/shared';
import type { BrowserPool } from '../../browser/pool.js';

/** The publisher-role job that prints a report: Chromium is only started there (jobs/roles.ts). */
export const DATA_REPORT_JOB = 'publish.data-report';

export interface ReportInput {
  generatedAt: string;
  overview: DataOverview;
  series: DataSeries;
  accounts: DataAccounts;
  top: DataTop;
}

const esc = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const n = (v: number | null) => (v === null ? '—' : v.toLocaleString('zh-CN'));
const signed = (v: number) => (v > 0 ? `+${n(v)}` : n(v));

/**
 * The dashboard as one printable HTML page (Simplified Chinese, CJK fonts of the system's Chromium): the overview
 * cards with their increases, a followers/views chart and the daily trend table, the accounts compared and the top
 * notes. Every value from users or platforms is escaped; the page loads nothing from outside.
 */
export function reportHtml(r: ReportInput): string {
  const o = r.overview;
  const cards: Array<[string, number, number]> = [
    ['粉丝数', o.followCount, o.followIncrease],
    ['阅读/浏览', o.readCount, o.readIncrease],
    ['作品数', o.articleCount, o.articleIncrease],
    ['点赞', o.likeCount, o.likeIncrease],
    ['收藏', o.collectCount, o.collectIncrease],
    ['评论', o.commentCount, o.commentIncrease],
    ['分享', o.shareCount, o.shareIncrease],
  ];
  const rows = r.series.points
    .map((p) => `<tr><td>${esc(p.date)}</td><td>${n(p.followers)}</td><td>${n(p.newFollowers)}</td><td>${n(p.views)}</td><td>${n(p.likes)}</td><td>${n(p.collects)}</td><td>${n(p.comments)}</td><td>${n(p.shares)}</td></tr>`)
    .join('');
  const accounts = r.accounts.accounts
    .map((a) => `<tr><td>${esc(a.accountName)}</td><td>${esc(a.platformName)}</td><td>${n(a.followCount)}</td><td>${signed(a.followIncrease)}</td><td>${n(a.readCount)}</td><td>${signed(a.readIncrease)}</td><td>${n(a.articleCount)}</td></tr>`)
    .join('');
  const top = r.top.notes
    .map((t, i) => `<tr><td>${i + 1}</td><td>${esc(t.title)}</td><td>${esc(t.platformName)}</td><td>${n(t.views)}</td><td>${n(t.likes)}</td><td>${n(t.collects)}</td><td>${n(t.comments)}</td></tr>`)
    .join('');
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>数据报告</title><style>
    body { font-family: 'Noto Sans CJK SC', 'Noto Sans SC', 'PingFang SC', 'Microsoft YaHei', sans-serif; color: #1f2329; margin: 0; font-size: 12px; }
    h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 15px; margin: 18px 0 8px; }
    .meta { color: #646a73; margin-bottom: 12px; }
    .cards { display: grid; grid-template-columns: repeat(4, 1fr); gap: 8px; }
    .card { border: 1px solid #dee0e3; border-radius: 6px; padding: 8px 10px; }
    .card .label { color: #646a73; } .card .value { font-size: 18px; font-weight: 600; } .card .inc { color: #3370ff; }
    table { width: 100%; border-collapse: collapse; } th, td { border-bottom: 1px solid #eceef1; padding: 4px 6px; text-align: right; }
    th:first-child, td:first-child, .left { text-align: left; } th { background: #f5f6f7; font-weight: 600; }
    tr { page-break-inside: avoid; } svg { display: block; margin: 4px 0 8px; }
  </style></head><body>
  <h1>数据报告</h1>
  <div class="meta">统计区间 ${esc(o.range.from)} 至 ${esc(o.range.to)}（${o.range.days} 天） · ${o.accountCount} 个账号 · 生成于 ${esc(r.generatedAt)}</div>
  <div class="cards">${cards.map(([label, value, inc]) => `<div class="card"><div class="label">${label}</div><div class="value">${n(value)}</div><div class="inc">区间增量 ${signed(inc)}</div></div>`).join('')}</div>
  <h2>趋势</h2>
  ${trendSvg(r.series)}
  <table><thead><tr><th>日期</th><th>粉丝数</th><th>新增粉丝</th><th>阅读/浏览</th><th>点赞</th><th>收藏</th><th>评论</th><th>分享</th></tr></thead><tbody>${rows}</tbody></table>
  <h2>账号对比</h2>
  <table><thead><tr><th>账号</th><th>平台</th><th>粉丝数</th><th>粉丝增量</th><th>阅读/浏览</th><th>阅读增量</th><th>作品数</th></tr></thead><tbody>${accounts}</tbody></table>
  <h2>热门笔记</h2>
  <table><thead><tr><th>#</th><th class="left">标题</th><th>平台</th><th>阅读/浏览</th><th>点赞</th><th>收藏</th><th>评论</th></tr></thead><tbody>${top || '<tr><td colspan="7" class="left">区间内暂无发布的笔记</td></tr>'}</tbody></table>
  </body></html>`;
}

/** Daily views as bars and followers as a line (each on its own scale), drawn as inline SVG so the page needs no script. */
function trendSvg(s: DataSeries): string {
  const pts = s.points.filter((p) => p.views !== null);
  if (!pts.length) return '<div class="meta">区间内暂无数据</div>';
  const w = 720;
  const h = 160;
  const pad = 24;
  const step = (w - pad * 2) / pts.length;
  const maxViews = Math.max(1, ...pts.map((p) => p.views ?? 0));
  const fs = pts.map((p) => p.followers ?? 0);
  const [lo, hi] = [Math.min(...fs), Math.max(...fs)];
  const y = (v: number, min: number, max: number) => h - pad - ((v - min) / Math.max(1, max - min)) * (h - pad * 2);
  const bars = pts.map((p, i) => `<rect x="${(pad + i * step + step * 0.15).toFixed(1)}" y="${y(p.views ?? 0, 0, maxViews).toFixed(1)}" width="${(step * 0.7).toFixed(1)}" height="${(h - pad - y(p.views ?? 0, 0, maxViews)).toFixed(1)}" fill="#bacefd"/>`).join('');
  const line = pts.map((p, i) => `${(pad + i * step + step / 2).toFixed(1)},${y(p.followers ?? 0, lo, hi).toFixed(1)}`).join(' ');
  return `<svg width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" xmlns="http://www.w3.org/2000/svg">${bars}<polyline points="${line}" fill="none" stroke="#3370ff" stroke-width="2"/>
    <text x="${pad}" y="14" font-size="11" fill="#646a73">柱：每日阅读/浏览（最高 ${n(maxViews)}） 线：粉丝数（${n(lo)}–${n(hi)}）</text></svg>`;
}

/** Publisher role: prints the page with the pool's Chromium; nothing outside the page is fetched. Answers base64. */
export async function renderPdf(pool: BrowserPool, html: string): Promise<string> {
  return pool.withPage('data-report', null, async (page) => {
    await page.route('**/*', (route) => route.abort());
    try {
      await page.setContent(html, { waitUntil: 'load' });
      const pdf = await page.pdf({ format: 'A4', printBackground: true, margin: { top: '14mm', bottom: '14mm', left: '12mm', right: '12mm' } });
      return pdf.toString('base64');
    } finally {
      await page.unroute('**/*');
    }
  });
}
