import type { creationPlatforms, creatorTypes } from '@inkstone/shared';

/** The creator profile's choices, shared by the profile-fill modal, the platform modal and the settings page. */
export const creatorLabels: Record<(typeof creatorTypes)[number], string> = { personal: '个人创作者', enterprise: '企业', media: '媒体', other: '其他' };
export const platformLabels: Record<(typeof creationPlatforms)[number], string> = {
  xiaohongshu: '小红书',
  wechat_mp: '微信公众号',
  douyin: '抖音',
  weibo: '微博',
  zhihu: '知乎',
  toutiao: '今日头条',
  bilibili: '哔哩哔哩',
  other: '其他',
};
export const industryOptions = ['科技', '教育', '美妆', '美食', '旅行', '母婴', '财经', '健康', '家居', '职场'].map((v) => ({ value: v, label: v }));
