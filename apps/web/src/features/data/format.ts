import type { DataMetric } from '@inkstone/shared';

export const fmtNum = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toLocaleString('zh-CN'));

export const metricLabels: Record<DataMetric, string> = {
  followers: '粉丝总数',
  newFollowers: '新增粉丝',
  views: '阅读',
  likes: '点赞',
  collects: '收藏',
  comments: '评论',
  shares: '分享',
};

export const weekdayLabels = ['周一', '周二', '周三', '周四', '周五', '周六', '周日'];

export const fmtDateTime = (iso: string | null) => {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString('zh-CN', { hour12: false });
};
