import { limits } from '@inkstone/shared';

/**
 * The release the server ships with: the web shows its notes once per version (the release-note modal). Kept in code
 * so a deployment's notes always match the build that serves them; the version is the app version of spec section 9.
 */
export const currentRelease = {
  version: limits.appVersion,
  date: '2026-11-23',
  notes: [
    '个人设置上线：头像裁剪上传、昵称、创作者资料、通知与免打扰、登录设备管理、微信绑定与解绑、注销账号。',
    '首页输入框支持选择写作能力（文体），每个消耗积分的操作旁显示所需积分。',
    '敏感内容提示会列出命中的词语、所在位置与修改建议。',
    '新增新手引导、功能指引与选择平台入口。',
  ],
};
