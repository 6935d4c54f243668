import AhoCorasick from 'modern-ahocorasick';

/** Purchase and contact intent in comments: a keyword lexicon matched with Aho–Corasick. */
export const intentLexicon: Record<'purchase' | 'contact', string[]> = {
  purchase: [
    '怎么买',
    '哪里买',
    '在哪买',
    '哪买',
    '多少钱',
    '价格',
    '什么价',
    '链接',
    '求链接',
    '有链接',
    '购买',
    '下单',
    '怎么卖',
    '有卖吗',
    '同款',
    '求购',
    '团购',
    '拍了',
    '想买',
  ],
  contact: ['私信', '私我', '联系方式', '怎么联系', '微信', '加v', '加微', 'vx', 'wx', '加个好友', '电话', '滴滴', '留个联系'],
};

export const suggestedReplies: Record<string, string> = {
  purchase: '感谢喜欢～购买方式已经私信你啦，记得查收哦',
  contact: '已私信你，方便的话在私信里细聊～',
  'purchase+contact': '感谢关注！详细信息已私信发你，请查看消息～',
};

const matcher = new AhoCorasick<'purchase' | 'contact'>(
  (Object.entries(intentLexicon) as ['purchase' | 'contact', string[]][]).flatMap(([intent, words]) => words.map((pattern) => ({ pattern, data: intent }))),
);

export function detectIntents(text: string): { intents: string[]; matched: string[] } {
  const hits = matcher.search(text.toLowerCase());
  const intents = [...new Set(hits.map((h) => h.data!).filter(Boolean))].sort();
  return { intents, matched: [...new Set(hits.map((h) => h.pattern))] };
}

export function suggestReply(intents: string[]): string {
  return suggestedReplies[intents.join('+')] ?? suggestedReplies[intents[0] ?? ''] ?? '感谢你的评论～';
}
