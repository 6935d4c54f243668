/**
 * Marketing days (营销节点) of the /topic calendar: a data table of date rules, each with suggested topics. The dates
 * come from the rules at request time, so no year is typed by hand. Festivals, solar terms and public holidays are
 * not here: they come from chinese-days (see modules/writing/festival.ts).
 */
export type MarketingRule =
  /** The same Gregorian date every year, "MM-DD"; `until` makes it a span (开学季). */
  | { kind: 'date'; md: string; until?: string }
  /** The nth (1-5) given weekday (0 Sunday ... 6 Saturday) of a month: 母亲节 is the 2nd Sunday of May. */
  | { kind: 'weekday'; month: number; nth: number; weekday: number; offsetDays?: number }
  /** Days counted from a traditional festival of the same lunar year (年货节 runs in the weeks before 春节). */
  | { kind: 'festival'; festival: '春节'; fromDays: number; toDays: number };

export interface MarketingDay {
  name: string;
  rule: MarketingRule;
  /** One line on what to write, shown under the name. */
  suggestion: string;
  /** Suggested topics; each can be handed to the home input. */
  topics: string[];
}

export const MARKETING_DAYS: MarketingDay[] = [
  {
    name: '年货节',
    rule: { kind: 'festival', festival: '春节', fromDays: -30, toDays: -9 },
    suggestion: '电商年货节：囤货清单、年货测评、送礼指南',
    topics: ['今年年货清单：这些值得提前囤', '年货节比价攻略：怎么买最划算', '给长辈送年货，送什么不踩雷'],
  },
  {
    name: '情人节',
    rule: { kind: 'date', md: '02-14' },
    suggestion: '写礼物清单、约会攻略、单身也快乐',
    topics: ['情人节礼物清单：按预算挑', '情人节约会攻略：不排队的好去处', '一个人的情人节也可以很好'],
  },
  {
    name: '女神节',
    rule: { kind: 'date', md: '03-07' },
    suggestion: '电商女神节：悦己消费、女性好物、成长故事',
    topics: ['女神节犒劳自己的好物清单', '30岁以后，我开始为自己花钱', '女神节大促怎么买不后悔'],
  },
  {
    name: '妇女节',
    rule: { kind: 'date', md: '03-08' },
    suggestion: '写女性成长、职场故事、权益科普',
    topics: ['职场女性的十个真实瞬间', '妇女节由来：不只是购物节', '写给妈妈的一封信'],
  },
  {
    name: '消费者权益日',
    rule: { kind: 'date', md: '03-15' },
    suggestion: '写避坑指南、维权经验、产品测评',
    topics: ['315避坑指南：这些消费陷阱要当心', '网购维权全流程', '今年315曝光了什么'],
  },
  {
    name: '世界读书日',
    rule: { kind: 'date', md: '04-23' },
    suggestion: '写书单、阅读方法、读书故事',
    topics: ['今年最值得读的10本书', '上班族怎么坚持每天读书', '一本改变我的书'],
  },
  { name: '520', rule: { kind: 'date', md: '05-20' }, suggestion: '写表白文案、礼物推荐、情侣故事', topics: ['520表白文案合集', '520礼物推荐：实用又有心意', '我们的恋爱故事'] },
  {
    name: '母亲节',
    rule: { kind: 'weekday', month: 5, nth: 2, weekday: 0 },
    suggestion: '写给妈妈的礼物与故事',
    topics: ['母亲节礼物清单：妈妈真正想要的', '我和妈妈的一张旧照片', '母亲节陪妈妈做的5件小事'],
  },
  { name: '儿童节', rule: { kind: 'date', md: '06-01' }, suggestion: '写亲子活动、童年回忆、玩具绘本推荐', topics: ['六一亲子活动推荐', '适合孩子的绘本清单', '大人也想过儿童节'] },
  { name: '618', rule: { kind: 'date', md: '06-18' }, suggestion: '写年中大促攻略、清单和比价', topics: ['618必买清单', '618满减规则一文看懂', '618数码产品怎么选'] },
  {
    name: '父亲节',
    rule: { kind: 'weekday', month: 6, nth: 3, weekday: 0 },
    suggestion: '写给爸爸的礼物与故事',
    topics: ['父亲节礼物：爸爸用得上的好物', '我的父亲，不善表达的爱', '陪爸爸过一个父亲节'],
  },
  {
    name: '开学季',
    rule: { kind: 'date', md: '09-01', until: '09-10' },
    suggestion: '写开学必备清单、新学期计划、家长指南',
    topics: ['开学必备清单', '新学期计划怎么做', '家长如何帮孩子适应开学'],
  },
  { name: '99划算节', rule: { kind: 'date', md: '09-09' }, suggestion: '电商秋季大促：好物推荐与比价', topics: ['99大促值得买的好物', '秋季换季好物清单'] },
  { name: '教师节', rule: { kind: 'date', md: '09-10' }, suggestion: '写师生故事、感恩老师、教育观察', topics: ['那位改变我的老师', '教师节送什么合适', '当老师这些年'] },
  { name: '双11', rule: { kind: 'date', md: '11-11' }, suggestion: '写购物清单、满减攻略、理性消费', topics: ['双11必买清单', '双11满减攻略一文看懂', '双11理性消费：这些别跟风'] },
  { name: '感恩节', rule: { kind: 'weekday', month: 11, nth: 4, weekday: 4 }, suggestion: '写感恩故事与感谢清单', topics: ['今年最想感谢的人', '感恩节写给自己的信'] },
  { name: '黑色星期五', rule: { kind: 'weekday', month: 11, nth: 4, weekday: 4, offsetDays: 1 }, suggestion: '海淘大促：攻略与避坑', topics: ['黑五海淘攻略', '黑五值得买的好物'] },
  { name: '双12', rule: { kind: 'date', md: '12-12' }, suggestion: '写年末好物、囤货清单', topics: ['双12年末好物清单', '双12和双11哪个更便宜'] },
  { name: '平安夜', rule: { kind: 'date', md: '12-24' }, suggestion: '写节日氛围、礼物与约会', topics: ['平安夜送什么', '平安夜约会去哪儿'] },
  { name: '圣诞节', rule: { kind: 'date', md: '12-25' }, suggestion: '写节日装扮、礼物、聚会', topics: ['圣诞礼物清单', '在家布置圣诞氛围'] },
  { name: '跨年夜', rule: { kind: 'date', md: '12-31' }, suggestion: '写年度复盘、跨年活动、新年计划', topics: ['我的年度复盘', '跨年去哪儿', '新一年的计划清单'] },
];
