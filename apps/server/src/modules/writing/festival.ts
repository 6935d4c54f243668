import chineseDays from 'chinese-days';
import type { FestivalItem } from '@inkstone/shared';

/** Traditional festivals we list (names as chinese-days spells them -> display name). */
const TRADITIONAL: Record<string, string> = {
  腊八节: '腊八节',
  民间送灶: '小年',
  除夕: '除夕',
  春节: '春节',
  元宵节: '元宵节',
  春龙节: '龙抬头',
  上巳节: '上巳节',
  端午节: '端午节',
  乞巧节: '七夕节',
  '中元(鬼)节': '中元节',
  中秋节: '中秋节',
  重阳节: '重阳节',
  寒衣节: '寒衣节',
  下元节: '下元节',
};

const SUGGESTIONS: Record<string, string> = {
  春节: '写团圆与年味：返乡见闻、年夜饭清单、新年计划，或行业的“新春特辑”',
  除夕: '写辞旧迎新：一年复盘、年夜饭故事、守岁习俗',
  元宵节: '写灯会与汤圆：南北吃法之争、猜灯谜、城市灯会攻略',
  龙抬头: '写“二月二剪龙头”的习俗，适合美发、开工、焕新类选题',
  端午节: '写粽子与龙舟：甜咸之争、屈原与端午由来、假期出游攻略',
  七夕节: '写爱情与礼物：送礼清单、情侣故事、单身也快乐',
  中秋节: '写月饼与团圆：月饼测评、思乡故事、赏月地点',
  重阳节: '写敬老与登高：父母健康、陪伴清单、秋季登山路线',
  腊八节: '写腊八粥与年味开端：家乡做法、养生食谱',
  小年: '写扫尘与祭灶：年前大扫除清单、年货准备',
  中元节: '写追思与传统：家族记忆、民俗由来（注意措辞庄重）',
  上巳节: '写春日踏青与传统礼俗',
  寒衣节: '写冬衣与思亲：换季穿搭、为长辈添衣',
  下元节: '写民俗由来与秋冬养生',
  清明: '写追思与踏青：清明习俗、春季出游、青团测评',
  立春: '写新春伊始：年度计划、春季养生、春日穿搭',
  冬至: '写饺子与汤圆之争、冬季进补、一年中最长的夜',
  元旦: '写新年计划与年度复盘',
  劳动节: '写五一出游攻略、劳动者故事、假期避坑指南',
  国庆节: '写国庆出游攻略、城市推荐、假期消费观察',
};

const HOLIDAY_NAMES: Record<string, string> = {
  "New Year's Day": '元旦',
  'Spring Festival': '春节',
  'Tomb-sweeping Day': '清明节',
  'Labour Day': '劳动节',
  'Dragon Boat Festival': '端午节',
  'Mid-autumn Festival': '中秋节',
  'National Day': '国庆节',
};

const suggestionFor = (name: string, type: FestivalItem['type']) =>
  SUGGESTIONS[name] ??
  (type === 'solar_term'
    ? `写「${name}」节气：物候与习俗、时令饮食、养生与生活建议，也可结合你的行业做时令选题`
    : `围绕「${name}」写节日由来、习俗和生活建议，或与你所在行业结合的选题`);

/** Festivals, the 24 solar terms and public holidays (where the calendar is published) of one year, by date. */
export function festivalsOf(year: number): FestivalItem[] {
  const start = `${year}-01-01`;
  const end = `${year}-12-31`;
  const items: FestivalItem[] = [];
  const seen = new Set<string>();
  for (const f of chineseDays.getLunarFestivals(start, end)) {
    for (const raw of f.name) {
      const name = TRADITIONAL[raw];
      if (!name || seen.has(name)) continue;
      seen.add(name);
      items.push({ date: f.date, name, type: 'traditional', endDate: null, suggestion: suggestionFor(name, 'traditional') });
    }
  }
  for (const t of chineseDays.getSolarTerms(start, end)) {
    items.push({ date: t.date, name: t.name, type: 'solar_term', endDate: null, suggestion: suggestionFor(t.name, 'solar_term') });
  }
  // Consecutive days off with the same holiday name form one entry.
  let current: FestivalItem | null = null;
  for (const day of chineseDays.getHolidaysInRange(start, end, false)) {
    const detail = chineseDays.getDayDetail(day);
    const parts = (detail.name ?? '').split(',');
    const name = parts[1] || HOLIDAY_NAMES[parts[0] ?? ''] || '';
    if (!name) continue;
    if (current && current.name === `${name}假期` && dayAfter(current.endDate ?? current.date) === day) {
      current.endDate = day;
      continue;
    }
    current = { date: day, name: `${name}假期`, type: 'public_holiday', endDate: day, suggestion: suggestionFor(name, 'public_holiday') };
    items.push(current);
  }
  return items.sort((a, b) => a.date.localeCompare(b.date) || a.type.localeCompare(b.type));
}

function dayAfter(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
