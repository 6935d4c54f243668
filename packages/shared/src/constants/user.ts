// Constants of the user contract that the web uses at run time, kept free of zod so the web bundle need not load it.
export const creatorTypes = ['personal', 'enterprise', 'media', 'other'] as const;

export const creationPlatforms = ['xiaohongshu', 'wechat_mp', 'douyin', 'weibo', 'zhihu', 'toutiao', 'bilibili', 'other'] as const;

/** Letters, digits, CJK, underscore, hyphen and middle dot: the change-nickname rule (nicknameSchema and the settings form). */
export const nicknamePattern = /^[\p{Script=Han}A-Za-z0-9_\-·]+$/u;
export const nicknamePatternMessage = '昵称只能包含中文、字母、数字、下划线、连字符';
