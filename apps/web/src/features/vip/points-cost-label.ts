/** What the points dictionary says an action costs: '消耗 N 积分', '免费' at 0, null when the feature is not priced. */
export function costLabel(dic: Record<string, number>, feature: string | null | undefined): string | null {
  if (!feature || !Object.hasOwn(dic, feature)) return null;
  const n = dic[feature]!;
  return n > 0 ? `消耗 ${n} 积分` : '免费';
}

/** The feature a home-input task is charged as, the way the server decides it (task.service.ts). */
export function homeTaskFeature(graphic: boolean, writeType: string, modelFeature: string | null | undefined): string {
  if (graphic) return 'graphic';
  if (modelFeature) return modelFeature;
  return writeType === 'deep' ? 'article_deep' : 'article_quick';
}
