import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  ErrorCode,
  sensitiveContentData,
  type AnglePlatform,
  type MapItem,
  type TopicAngle,
  type TopicAngles,
  type TopicHotPage,
  type TopicCalendar,
  type TopicItem,
  type TrackInfo,
  type TrackSearchResult,
} from '@inkstone/shared';
import type { Clock } from '../../clock.js';
import type { TopicSourceRef } from '../../db/schema/topic.js';
import { appError } from '../../http/errors.js';
import type { LlmRegistry } from '../llm/llm-registry.js';
import { complete, LlmUpstreamError } from '../../integrations/llm/types.js';
import { SNAPSHOT_DATE } from '../../integrations/trends/index.js';
import { TrendSourceError, type TrendItem, type TrendSource } from '../../integrations/trends/types.js';
import type { PointsService } from '../vip/points.service.js';
import { userFacing } from '../writing/task.service.js';
import type { PersonaRow } from '../drafts/drafts.repo.js';
import { z } from 'zod';
import type { FeedRow, ItemRow, TopicRepo, TrackRow } from './topic.repo.js';
import { calendarOf } from './topic.calendar.js';
import { apartSegmenterWithFallback, type BatchSegmenter } from '../../integrations/llm/segmenter-apart.js';
import { classify, contentWords, forSegmenting, sameStory, storyKeyOf, type TrackRule } from './topic.text.js';

/** Items last seen longer ago than this leave the hot lists. */
export const HOT_WINDOW_MS = 48 * 60 * 60_000;
/** Rank score halves every this many hours of age. */
const HALF_LIFE_H = 12;
export const ANGLES_FEATURE = 'topic_angles';
/** How long a read with nothing to show waits for the first refresh. */
const FIRST_FILL_WAIT_MS = 8_000;
/** Titles given to the model per refresh when keyword rules placed them nowhere. */
const MODEL_CLASSIFY_MAX = 40;

const platformNames: Record<AnglePlatform, string> = {
  xiaohongshu: '小红书',
  wechat_mp: '公众号',
  douyin: '抖音',
  weibo: '微博',
  zhihu: '知乎',
  toutiao: '头条',
  bilibili: 'B站',
};

/** Positional heat: first of a list 100, falling 2 per place, floor 10 (a list of 50 ends at 10). */
const positional = (rank: number) => Math.max(10, 100 - (rank - 1) * 2);

export interface RefreshSummary {
  fetched: string[];
  skipped: string[];
  failed: Array<{ source: string; error: string }>;
  /** New stories. */
  inserted: number;
  /** Stories already stored, seen again. */
  updated: number;
  /** Items of this refresh folded into another item's story (the same story from another source). */
  deduped: number;
}

/** One story of a refresh: the items that tell it, and the stored item that already does. */
interface StoryGroup {
  key: string;
  tokens: string[];
  parts: Incoming[];
  row: ItemRow | undefined;
}

/** A story keeps its stored title and summary; a new one takes its first source's title and first summary. */
function storyWording(g: StoryGroup): { title: string; summaryText: string } {
  return {
    title: g.row?.title ?? g.parts[0]!.item.title,
    summaryText: g.row?.summary || g.parts.map((p) => p.item.summary).find(Boolean) || '',
  };
}

/** What a story is classified by: its title and summary. */
function storyText(g: StoryGroup): string {
  const { title, summaryText } = storyWording(g);
  return `${title} ${summaryText}`;
}

interface Incoming {
  item: TrendItem;
  ref: TopicSourceRef;
  live: boolean;
  /** The system track the source files every item under (a feed added for one track). */
  track?: string | undefined;
}

/** What the topic service needs beyond its repo: feeds built from stored rows, the lexicon and personas. */
export interface TopicServiceDeps {
  feedSource(row: FeedRow): TrendSource;
  /** The 933 check (modules/lexicon SensitiveLexicon): the distinct words found, empty when clean. */
  lexicon: { check(text: string): Promise<string[]> };
  /** The user's persona (modules/drafts DraftRepo), undefined when it is not theirs. */
  personas: { persona(userId: number, id: number): Promise<PersonaRow | undefined> };
  /** The ids of TRENDS_SOURCES an operator switched off in the console (modules/sources), read at use time. */
  switchedOff?: () => Promise<Set<string>>;
}

export const feedNameMaxLength = 30;
/** `topic:source:add`: the URL is only checked for shape here; the SSRF rules apply when it is fetched. */
export const feedAddInput = z.object({
  url: z
    .string({ error: '请提供订阅源地址 --url' })
    .trim()
    .max(2000, '订阅源地址 --url 最多2000个字符')
    .pipe(z.url({ protocol: /^https?$/, error: '订阅源地址 --url 必须是 http(s) 网址' })),
  name: z.string({ error: '请提供名称 --name' }).trim().min(1, '名称 --name 不能为空').max(feedNameMaxLength, `名称 --name 最多${feedNameMaxLength}个字`),
  track: z.string().trim().max(20, '赛道 --track 最多20个字').optional(),
});

export class TopicService {
  private refreshing: Promise<RefreshSummary> | null = null;

  constructor(
    private readonly repo: TopicRepo,
    private readonly sources: TrendSource[],
    private readonly points: PointsService,
    private readonly llms: LlmRegistry,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly deps: TopicServiceDeps,
  ) {}

  /**
   * Configured sources not switched off in the console, then the enabled feeds an operator added (read each time, so
   * no restart is needed).
   */
  private async allSources(): Promise<TrendSource[]> {
    const ids = new Set(this.sources.map((s) => s.id));
    const off = (await this.deps.switchedOff?.()) ?? new Set<string>();
    const added = (await this.repo.feeds(true)).map((row) => this.deps.feedSource(row)).filter((s) => !ids.has(s.id));
    return [...this.sources.filter((s) => !off.has(s.id)), ...added];
  }

  // Feeds an operator adds (admin CLI)

  async feedList() {
    const [rows, states, off] = await Promise.all([this.repo.feeds(), this.repo.sourceStates(), this.deps.switchedOff?.() ?? new Set<string>()]);
    const byId = new Map(states.map((st) => [st.source, st]));
    const state = (id: string) => {
      const st = byId.get(id);
      return { lastFetchedAt: st?.lastFetchedAt.toISOString() ?? null, ok: st?.ok ?? null, error: st?.error ?? null, itemCount: st?.itemCount ?? 0 };
    };
    return [
      ...this.sources.map((src) => ({
        id: null,
        source: src.id,
        name: src.name,
        url: null,
        track: src.track ?? null,
        enabled: !off.has(src.id),
        origin: 'TRENDS_SOURCES',
        ...state(src.id),
      })),
      ...rows.map((r) => {
        const src = this.deps.feedSource(r);
        return { id: r.id, source: src.id, name: r.name, url: r.url, track: r.track, enabled: r.enabled, origin: 'admin', ...state(src.id) };
      }),
    ];
  }

  async addFeed(input: { url?: string | undefined; name?: string | undefined; track?: string | undefined }): Promise<FeedRow> {
    const parsed = feedAddInput.safeParse(input);
    if (!parsed.success) throw appError(ErrorCode.VALIDATION, parsed.error.issues[0]?.message ?? '参数不合法');
    const { url, name, track } = parsed.data;
    if (track && !(await this.repo.systemTracks()).some((t) => t.name === track))
      throw appError(ErrorCode.VALIDATION, `赛道 --track「${track}」不是系统赛道（topic:tracks 可查看）`);
    const id = this.deps.feedSource({ id: 0, url, name, track: null, enabled: true, createdAt: new Date(0) }).id;
    if (this.sources.some((s) => s.id === id)) throw appError(ErrorCode.CONFLICT, '这个订阅源已在 TRENDS_SOURCES 中配置');
    const row = await this.repo.insertFeed({ url, name, track: track || null });
    if (!row) throw appError(ErrorCode.CONFLICT, '这个订阅源已经添加过了');
    return row;
  }

  async setFeedEnabled(id: number, enabled: boolean): Promise<FeedRow> {
    const row = await this.repo.setFeedEnabled(id, enabled);
    if (!row) throw appError(ErrorCode.NOT_FOUND, `订阅源 ${id} 不存在（topic:sources 可查看）`);
    return row;
  }

  async removeFeed(id: number): Promise<FeedRow> {
    const row = await this.repo.deleteFeed(id, (url) => this.deps.feedSource({ id, url, name: '', track: null, enabled: true, createdAt: new Date(0) }).id);
    if (!row) throw appError(ErrorCode.NOT_FOUND, `订阅源 ${id} 不存在（topic:sources 可查看）`);
    return row;
  }

  // Tracks

  async trackInfo(userId: number): Promise<TrackInfo> {
    const [sys, own, sel] = await Promise.all([this.repo.systemTracks(), this.repo.userTracks(userId), this.repo.selection(userId)]);
    const split = (v: string | undefined) => (v ? v.split('|').filter(Boolean) : []);
    return {
      trackData: sys
        .filter((t) => t.parentId === null)
        .map((t) => ({ id: t.id, name: t.name, children: sys.filter((c) => c.parentId === t.id).map((c) => ({ id: c.id, name: c.name })) })),
      customTrackData: own.map((t) => ({ id: t.id, name: t.name })),
      isCreatorType: !!sel?.creatorType,
      sysTrack: split(sel?.sys),
      userTrack: split(sel?.user),
    };
  }

  async saveTracks(userId: number, body: { sysTrack: string[]; userTrack: string[] }): Promise<TrackInfo> {
    const names = new Set((await this.repo.systemTracks()).map((t) => t.name));
    const unknown = body.sysTrack.find((n) => !names.has(n));
    if (unknown) throw appError(ErrorCode.VALIDATION, `赛道 sysTrack 中的「${unknown}」不是系统赛道，请从列表中选择或作为自定义赛道 userTrack 添加`);
    const dedupe = (l: string[]) => [...new Set(l)];
    await this.repo.saveSelection(userId, dedupe(body.sysTrack), dedupe(body.userTrack));
    return this.trackInfo(userId);
  }

  async searchTracks(userId: number, keyword: string): Promise<TrackSearchResult> {
    const [rows, sys] = await Promise.all([this.repo.searchTracks(userId, keyword), this.repo.systemTracks()]);
    const parents = new Map(sys.map((t) => [t.id, t.name]));
    const page = await this.hot(userId, { pageNum: 1, pageSize: 20, keyword });
    return {
      tracks: rows.map((t) => ({ id: t.id, name: t.name, parent: t.parentId === null ? null : (parents.get(t.parentId) ?? null), system: t.userId === null })),
      topics: page.records,
    };
  }

  // Hot lists

  async hot(
    userId: number,
    q: { pageNum: number; pageSize: number; track?: string | undefined; keyword?: string | undefined; source?: string | undefined },
  ): Promise<TopicHotPage> {
    const since = new Date(this.clock.now().getTime() - HOT_WINDOW_MS);
    // Nothing recent at all (first start, or the server was off): fetch now rather than show an empty page.
    if (!(await this.repo.listItems({ since }, 1, 0)).total) {
      // Waited for at most a few seconds: a slow site must not hang the page; the refresh goes on in the background.
      const refresh = this.refreshOnce().catch((err: unknown) => this.log.error({ err }, 'topic refresh failed'));
      await Promise.race([refresh, new Promise((r) => setTimeout(r, FIRST_FILL_WAIT_MS).unref())]);
    }
    const sys = await this.repo.systemTracks();
    const liveOnly = await this.repo.hasLive(since);
    const filter: Parameters<TopicRepo['listItems']>[0] = { since, liveOnly, ...(q.source ? { source: q.source } : {}) };
    const words: string[] = [];
    if (q.track) {
      if (sys.some((t) => t.name === q.track)) filter.systemTrack = q.track;
      else words.push(q.track);
    }
    if (q.keyword) words.push(q.keyword);
    // Both a user track and a keyword: items must match the keyword within the track's words.
    if (q.track && q.keyword && !filter.systemTrack) {
      const { rows } = await this.repo.listItems({ ...filter, words: [q.track] }, 500, 0);
      const kw = q.keyword.toLowerCase();
      const hits = rows.filter((r) => r.title.toLowerCase().includes(kw) || r.summary.toLowerCase().includes(kw));
      return this.page(userId, hits.slice((q.pageNum - 1) * q.pageSize, q.pageNum * q.pageSize), hits.length, q, liveOnly);
    }
    if (words.length) filter.words = q.keyword ? [q.keyword] : words;
    const { rows, total } = await this.repo.listItems(filter, q.pageSize, (q.pageNum - 1) * q.pageSize);
    return this.page(userId, rows, total, q, liveOnly);
  }

  private async page(userId: number, rows: ItemRow[], total: number, q: { pageNum: number; pageSize: number }, liveOnly: boolean): Promise<TopicHotPage> {
    const collected = await this.repo.collectedIds(
      userId,
      rows.map((r) => r.id),
    );
    const states = new Map((await this.repo.sourceStates()).map((s) => [s.source, s]));
    const sources = await this.allSources();
    return {
      records: rows.map((r) => this.toItem(r, collected.has(r.id))),
      total,
      pageNum: q.pageNum,
      pageSize: q.pageSize,
      sources: sources.map((s) => {
        const st = states.get(s.id);
        return {
          source: s.id,
          sourceName: s.name,
          lastFetchedAt: st?.lastFetchedAt.toISOString() ?? null,
          ok: st?.ok ?? null,
          error: st?.error ?? null,
          itemCount: st?.itemCount ?? 0,
        };
      }),
      snapshotDate: liveOnly ? null : SNAPSHOT_DATE,
    };
  }

  private toItem(r: ItemRow, collected: boolean): TopicItem {
    return {
      id: r.id,
      title: r.title,
      summary: r.summary,
      url: r.url,
      sources: r.sources,
      tracks: r.tracks,
      score: Math.round(r.score * 10) / 10,
      heat: Math.max(0, ...r.sources.map((s) => s.heat)),
      trend: r.trend as TopicItem['trend'],
      snapshot: r.snapshot,
      publishedAt: r.publishedAt?.toISOString() ?? null,
      firstSeenAt: r.firstSeenAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
      collected,
    };
  }

  async topic(userId: number, id: number): Promise<TopicItem> {
    const row = await this.repo.item(id);
    if (!row) throw appError(ErrorCode.NOT_FOUND, '选题不存在或已过期');
    return this.toItem(row, (await this.repo.collectedIds(userId, [id])).has(id));
  }

  // Collections

  async collect(userId: number, topicId: number, on: boolean) {
    if (!(await this.repo.item(topicId))) throw appError(ErrorCode.NOT_FOUND, '选题不存在或已过期');
    if (on) await this.repo.collect(userId, topicId);
    else await this.repo.uncollect(userId, topicId);
    return { topicId, collected: on };
  }

  async collections(userId: number, q: { pageNum: number; pageSize: number }) {
    const { rows, total } = await this.repo.collections(userId, q.pageSize, (q.pageNum - 1) * q.pageSize);
    return { records: rows.map((r) => ({ ...this.toItem(r.item, true), collectedAt: r.collectedAt.toISOString() })), total, pageNum: q.pageNum, pageSize: q.pageSize };
  }

  // Refresh (the job)

  /** One refresh at a time in this process; concurrent callers share it. */
  refreshOnce(force = false): Promise<RefreshSummary> {
    this.refreshing ??= this.refresh(force).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /**
   * Fetches every source whose minimum interval has passed, merges the same story across sources (same normalised
   * title, or most content words shared), ranks by positional heat summed over sources and decayed by age, and
   * classifies by the tracks' jieba keyword rules.
   */
  private async refresh(force: boolean): Promise<RefreshSummary> {
    const now = this.clock.now();
    const summary: RefreshSummary = { fetched: [], skipped: [], failed: [], inserted: 0, updated: 0, deduped: 0 };
    const incoming = await this.fetchDue(now, force, summary);
    if (!incoming.length) return summary;

    const rules = this.rules(await this.repo.systemTracks());
    const recent = await this.repo.recentItems(new Date(now.getTime() - HOT_WINDOW_MS));
    const touched = new Set<number>();
    const unclassified: Array<{ id: number; title: string }> = [];
    // The segmenter's child lives for the two cuts only, not for the writes that follow.
    const segmenter = apartSegmenterWithFallback((err) => this.log.warn({ err: err.message }, 'jieba child process failed: this refresh segments in process'));
    let groups: StoryGroup[];
    let words: string[][];
    try {
      groups = await this.groupStories(incoming, recent, segmenter);
      words = await segmenter.cut(groups.map((g) => forSegmenting(storyText(g))));
    } finally {
      segmenter.close();
    }
    summary.deduped = incoming.length - groups.reduce((n, g) => n + (g.parts.length ? 1 : 0), 0);
    for (const [i, g] of groups.entries()) touched.add(await this.storeStory(g, now, rules, contentWords(words[i]!), unclassified, summary));
    if (unclassified.length) await this.classifyWithModel(unclassified, rules);
    // Stories a refreshed source no longer lists are cooling: their score halves and the arrow points down.
    const refreshed = new Set(summary.fetched);
    for (const r of recent) {
      if (touched.has(r.id) || !r.sources.some((s) => refreshed.has(s.source))) continue;
      await this.repo.updateItem(r.id, { prevScore: r.score, score: r.score / 2, trend: 'down' });
    }
    this.log.info({ ...summary, failed: summary.failed.length }, 'topics refreshed');
    return summary;
  }

  /** Fetches the sources whose minimum interval has passed, recording each one's outcome. */
  private async fetchDue(now: Date, force: boolean, summary: RefreshSummary): Promise<Incoming[]> {
    const states = new Map((await this.repo.sourceStates()).map((s) => [s.source, s]));
    const incoming: Incoming[] = [];
    const due = (await this.allSources()).filter((src) => {
      const last = states.get(src.id)?.lastFetchedAt;
      const skip = !force && last && now.getTime() - last.getTime() < src.minIntervalMs;
      if (skip) summary.skipped.push(src.id);
      return !skip;
    });
    // Sources are independent sites: fetched side by side, so one slow list does not hold up the others.
    const results = await Promise.allSettled(due.map((src) => src.fetch(AbortSignal.timeout(20_000))));
    for (const [i, src] of due.entries()) {
      const r = results[i]!;
      if (r.status === 'fulfilled') {
        const name = r.value.name ?? src.name;
        for (const item of r.value.items.slice(0, 50))
          incoming.push({ item, live: src.live, track: src.track, ref: { source: src.id, sourceName: name, url: item.url, heat: item.heat, rank: item.rank } });
        await this.repo.setSourceState({ source: src.id, lastFetchedAt: now, ok: true, error: null, itemCount: r.value.items.length });
        summary.fetched.push(src.id);
      } else {
        const err: unknown = r.reason;
        const msg = err instanceof TrendSourceError ? err.message : '获取失败';
        if (!(err instanceof TrendSourceError)) this.log.error({ err, source: src.id }, 'trend source failed unexpectedly');
        else this.log.warn({ source: src.id, reason: err.message }, 'trend source failed');
        await this.repo.setSourceState({ source: src.id, lastFetchedAt: now, ok: false, error: msg, itemCount: 0 });
        summary.failed.push({ source: src.id, error: msg });
      }
    }
    return incoming;
  }

  /** This refresh's items as stories, each matched to a stored item when one tells the same story. */
  private async groupStories(incoming: Incoming[], recent: ItemRow[], segmenter: BatchSegmenter): Promise<StoryGroup[]> {
    const groups: StoryGroup[] = [];
    const titleWords = await segmenter.cut(incoming.map((inc) => forSegmenting(inc.item.title)));
    for (const [i, inc] of incoming.entries()) {
      const key = storyKeyOf(inc.item.title);
      if (!key) continue;
      const tokens = contentWords(titleWords[i]!);
      let g = groups.find((x) => x.key === key || sameStory(x.tokens, tokens));
      if (!g) {
        g = { key, tokens, parts: [], row: recent.find((r) => r.storyKey === key || sameStory(r.tokens, tokens)) };
        if (!g.row) {
          const [stored] = await this.repo.byStoryKeys([key]);
          g.row = stored;
        }
        groups.push(g);
      }
      g.parts.push(inc);
    }
    return groups;
  }

  /** Scores, classifies and stores one story (a new item, or the stored one updated); returns the item's id. */
  private async storeStory(
    g: StoryGroup,
    now: Date,
    rules: TrackRule[],
    textWords: string[],
    unclassified: Array<{ id: number; title: string }>,
    summary: RefreshSummary,
  ): Promise<number> {
    const ageFactor = (d: Date) => Math.pow(0.5, Math.max(0, now.getTime() - d.getTime()) / 3_600_000 / HALF_LIFE_H);
    const fetchedIds = new Set(g.parts.map((p) => p.ref.source));
    // This refresh's position replaces the earlier one from the same source; other sources' refs stay.
    const refs = [...(g.row?.sources ?? []).filter((s) => !fetchedIds.has(s.source)), ...dedupeRefs(g.parts.map((p) => p.ref))];
    const lead = g.parts[0]!.item;
    const { title, summaryText } = storyWording(g);
    const published = g.row?.publishedAt ?? g.parts.map((p) => p.item.publishedAt).find((d): d is Date => !!d) ?? null;
    const firstSeen = g.row?.firstSeenAt ?? now;
    const best = Math.max(...refs.map((r) => positional(r.rank)));
    const spread = new Set(refs.map((r) => r.source)).size - 1;
    const score = (best + 15 * spread) * ageFactor(published && published < firstSeen ? published : firstSeen);
    const tokens = [...new Set([...(g.row?.tokens ?? []), ...g.tokens])];
    const tracks = withSourceTracks(classify(storyText(g), textWords, rules), g.parts, rules);
    const live = g.parts.some((p) => p.live);
    if (g.row) {
      const prev = g.row.score;
      // Places gained or lost on the lists that were fetched again say more than the decayed score does.
      let moved = 0;
      for (const r of refs) {
        const before = g.row.sources.find((o) => o.source === r.source);
        if (before && fetchedIds.has(r.source)) moved += before.rank - r.rank;
      }
      const trend = moved > 0 ? 'up' : moved < 0 ? 'down' : score > prev * 1.1 ? 'up' : score < prev * 0.9 ? 'down' : 'flat';
      await this.repo.updateItem(g.row.id, {
        sources: refs,
        tokens,
        tracks,
        score,
        prevScore: prev,
        trend,
        summary: summaryText,
        snapshot: g.row.snapshot && !live,
        lastSeenAt: now,
      });
      if (!tracks.length) unclassified.push({ id: g.row.id, title });
      summary.updated += 1;
      return g.row.id;
    } else {
      const row = await this.repo.insertItem({
        storyKey: g.key,
        title,
        summary: summaryText,
        url: lead.url,
        sources: refs,
        tokens,
        tracks,
        score,
        trend: 'new',
        snapshot: !live,
        publishedAt: published,
        firstSeenAt: now,
        lastSeenAt: now,
      });
      if (!tracks.length) unclassified.push({ id: row.id, title });
      summary.inserted += 1;
      return row.id;
    }
  }

  /**
   * When a model is configured (the default model is AI), titles no keyword rule placed are given to it once per
   * refresh, at most MODEL_CLASSIFY_MAX of them; it may only answer names of top-level system tracks. This is the
   * operator's own spend (no user is charged). A failure leaves the items unclassified.
   */
  private async classifyWithModel(items: Array<{ id: number; title: string }>, rules: TrackRule[]) {
    let model;
    try {
      model = await this.llms.get(null);
    } catch {
      return;
    }
    if (!model.isAi) return;
    const names = rules.filter((r) => r.parent === null).map((r) => r.name);
    const batch = items.slice(0, MODEL_CLASSIFY_MAX);
    try {
      const { text } = await complete(model.client, {
        signal: AbortSignal.timeout(60_000),
        temperature: 0,
        messages: [
          { role: 'system', content: '你是内容分类助手。只输出 JSON。' },
          {
            role: 'user',
            content:
              `可选赛道：${names.join('、')}。\n把下面每条热点标题归到0到2个最相关的赛道（都不相关就给空数组），` +
              `输出 JSON 对象，键是序号，值是赛道名数组，例如 {"1":["财经"],"2":[]}：\n` +
              batch.map((b, i) => `${i + 1}. ${b.title}`).join('\n'),
          },
        ],
      });
      const start = text.indexOf('{');
      const end = text.lastIndexOf('}');
      if (start < 0 || end <= start) throw new LlmUpstreamError('no JSON object in the reply');
      const parsed = JSON.parse(text.slice(start, end + 1)) as Record<string, unknown>;
      for (const [i, b] of batch.entries()) {
        const picked = parsed[String(i + 1)];
        const tracks = Array.isArray(picked) ? [...new Set(picked.filter((n): n is string => typeof n === 'string' && names.includes(n)))].slice(0, 2) : [];
        if (tracks.length) await this.repo.updateItem(b.id, { tracks });
      }
    } catch (err) {
      this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'model classification of topics failed; keyword rules only');
    }
  }

  private rules(tracks: TrackRow[]): TrackRule[] {
    const byId = new Map(tracks.map((t) => [t.id, t]));
    return tracks.map((t) => ({ name: t.name, parent: t.parentId === null ? null : (byId.get(t.parentId)?.name ?? null), keywords: [...t.keywords, t.name] }));
  }

  // AI angles

  /**
   * 5-10 writing angles for a hot topic or any keyword, per platform. A model charges `topic_angles` once per
   * requestId and refunds once when it fails; the offline writer answers template angles, free and labelled not AI.
   */
  async angles(
    userId: number,
    body: {
      topicId?: number | undefined;
      keyword?: string | undefined;
      platform: AnglePlatform;
      count: number;
      requestId?: string | undefined;
      modelConfigType?: string | null | undefined;
      personaId?: number | null | undefined;
    },
  ): Promise<TopicAngles> {
    let subject = body.keyword ?? '';
    let context = '';
    if (body.topicId !== undefined) {
      const row = await this.repo.item(body.topicId);
      if (!row) throw appError(ErrorCode.NOT_FOUND, '选题不存在或已过期');
      subject = row.title;
      context = row.summary;
    }
    const model = await this.llms.get(body.modelConfigType);
    const persona = body.personaId ? await this.deps.personas.persona(userId, body.personaId) : null;
    if (body.personaId && !persona) throw appError(ErrorCode.NOT_FOUND, '人设不存在');
    // What goes to the model is checked before anything is charged, as writing does (933 描述词存在敏感内容).
    const hits = await this.deps.lexicon.check(`${subject}\n${context}`);
    if (hits.length) throw appError(ErrorCode.SENSITIVE_CONTENT, undefined, sensitiveContentData(hits, '选题'));
    const platform = platformNames[body.platform];
    if (!model.isAi) return { subject, platform: body.platform, angles: templateAngles(subject, platform, body.count), isAi: false, pointsCharged: 0 };

    const cost = await this.points.costOf(ANGLES_FEATURE);
    const key = `angles:${userId}:${body.requestId ?? randomUUID()}`;
    let charged = 0;
    if (cost > 0) {
      if (body.requestId && (await this.points.used(`refund:${key}`))) throw appError(ErrorCode.CONFLICT, '这次请求已失败并退回积分，请重新生成');
      const res = await this.points.charge(userId, cost, { reason: ANGLES_FEATURE, idempotencyKey: key });
      charged = res.duplicate ? 0 : cost;
    }
    try {
      const { text } = await complete(model.client, {
        signal: AbortSignal.timeout(60_000),
        temperature: 0.8,
        messages: [
          { role: 'system', content: [`你是资深的中文新媒体选题策划，熟悉${platform}的内容风格与读者。只输出 JSON。`, personaPrompt(persona)].filter(Boolean).join('\n') },
          {
            role: 'user',
            content:
              `围绕选题「${subject}」${context ? `（背景：${context}）` : ''}，为${platform}策划${body.count}个不同的写作角度。` +
              (persona ? '角度、标题和开头都要符合上面的人设。' : '') +
              `输出 JSON 数组，每项 {"angle":"角度（10字内）","title":"适合${platform}的标题","hook":"开头第一句，用来抓住读者"}，不要其他文字。`,
          },
        ],
      });
      const angles = parseAngles(text).slice(0, body.count);
      if (angles.length < Math.min(5, body.count)) throw new LlmUpstreamError('too few angles in the reply');
      // The model's words are checked too: an answer with a lexicon word is refused whole (933) and refunded below.
      if ((await this.deps.lexicon.check(angles.map((a) => `${a.angle}\n${a.title}\n${a.hook}`).join('\n'))).length) {
        throw appError(ErrorCode.SENSITIVE_CONTENT, cost > 0 ? '生成内容存在敏感内容，已退还积分' : '生成内容存在敏感内容');
      }
      return { subject, platform: body.platform, angles, isAi: true, pointsCharged: charged };
    } catch (err) {
      if (cost > 0) await this.points.refund(userId, key, { reason: `refund:${ANGLES_FEATURE}` });
      const f = userFacing(err);
      if (!f.expected) this.log.error({ err }, 'angle generation failed');
      throw appError(f.code, f.msg);
    }
  }

  // Calendar

  calendar(month: string): TopicCalendar {
    return calendarOf(month);
  }

  // Divergent maps

  async saveMap(userId: number, body: { id?: number | undefined; title: string; data: Record<string, unknown> }): Promise<MapItem> {
    const row = await this.repo.saveMap(userId, body, this.clock.now());
    if (!row) throw appError(ErrorCode.NOT_FOUND, '导图不存在');
    return { id: row.id, title: row.title, data: row.data, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
  }

  async maps(userId: number) {
    return (await this.repo.listMaps(userId)).map((m) => ({ id: m.id, title: m.title, createdAt: m.createdAt.toISOString(), updatedAt: m.updatedAt.toISOString() }));
  }

  async map(userId: number, id: number): Promise<MapItem> {
    const row = await this.repo.map(userId, id);
    if (!row) throw appError(ErrorCode.NOT_FOUND, '导图不存在');
    return { id: row.id, title: row.title, data: row.data, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
  }

  async deleteMap(userId: number, id: number) {
    if (!(await this.repo.deleteMap(userId, id))) throw appError(ErrorCode.NOT_FOUND, '导图不存在');
    return null;
  }
}

/** Adds the track a source files its items under (and its parent, for a sub-track) to what the keyword rules found. */
function withSourceTracks(tracks: string[], parts: Incoming[], rules: TrackRule[]): string[] {
  const out = new Set(tracks);
  for (const p of parts) {
    const rule = p.track ? rules.find((r) => r.name === p.track) : undefined;
    if (!rule) continue;
    out.add(rule.name);
    if (rule.parent) out.add(rule.parent);
  }
  return [...out];
}

const dedupeRefs = (refs: TopicSourceRef[]) => {
  const seen = new Map<string, TopicSourceRef>();
  for (const r of refs) if (!seen.has(r.source) || seen.get(r.source)!.rank > r.rank) seen.set(r.source, r);
  return [...seen.values()];
};

/** The persona as the model is told it (name, platform, industry, readers, tone, words to avoid). */
function personaPrompt(p: PersonaRow | null | undefined): string {
  if (!p) return '';
  return [
    `人设：${p.name}`,
    p.platform && `发布平台：${p.platform}`,
    p.industry && `行业：${p.industry}`,
    p.audience && `目标读者：${p.audience}`,
    p.tone && `语气：${p.tone}`,
    p.tabooWords.length ? `禁止出现的词：${p.tabooWords.join('、')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** The model's JSON array, tolerating a fenced block or prose around it. */
export function parseAngles(text: string): TopicAngle[] {
  const start = text.indexOf('[');
  const end = text.lastIndexOf(']');
  if (start < 0 || end <= start) return [];
  try {
    const arr = JSON.parse(text.slice(start, end + 1)) as unknown;
    if (!Array.isArray(arr)) return [];
    return arr
      .map((a) => (a && typeof a === 'object' ? (a as Record<string, unknown>) : {}))
      .map((a) => ({
        angle: String(a.angle ?? '')
          .trim()
          .slice(0, 30),
        title: String(a.title ?? '')
          .trim()
          .slice(0, 60),
        hook: String(a.hook ?? '')
          .trim()
          .slice(0, 200),
      }))
      .filter((a) => a.angle && a.title);
  } catch {
    return [];
  }
}

/** The offline writer's angles: fixed templates filled with the subject; the reply says isAi:false and the UI labels them. */
export function templateAngles(subject: string, platform: string, count: number): TopicAngle[] {
  const s = subject.length > 24 ? `${subject.slice(0, 24)}…` : subject;
  const all: TopicAngle[] = [
    { angle: '事件梳理', title: `一文看懂：${s}`, hook: `关于「${s}」，很多人只看到了标题，这里把来龙去脉一次讲清楚。` },
    { angle: '个人经历', title: `我亲身经历的${s}`, hook: `说起「${s}」，我想先讲一件发生在自己身上的事。` },
    { angle: '实用清单', title: `${s}：这5件事最值得知道`, hook: `如果你只有一分钟，先收藏这份关于「${s}」的清单。` },
    { angle: '反常识观点', title: `关于${s}，大多数人都想错了`, hook: `「${s}」背后，有一个被忽略的事实。` },
    { angle: '影响分析', title: `${s}，会怎样影响普通人？`, hook: `「${s}」和你我有什么关系？答案可能比你想的更近。` },
    { angle: '问答科普', title: `${s}：常见的6个问题`, hook: `评论区被问得最多的，就是这几个关于「${s}」的问题。` },
    { angle: '对比盘点', title: `${s}前后，有哪些变化`, hook: `把「${s}」前后放在一起看，差别一目了然。` },
    { angle: '行业视角', title: `从业者怎么看${s}`, hook: `站在行业里看「${s}」，会看到外人看不到的细节。` },
    { angle: '情绪共鸣', title: `看到${s}，我破防了`, hook: `「${s}」这件事，戳中了很多人心里最软的地方。` },
    { angle: '行动建议', title: `面对${s}，现在就能做的3件事`, hook: `与其焦虑「${s}」，不如先做好这几步。` },
  ];
  return all.slice(0, count).map((a) => ({ ...a, title: platform === '小红书' ? `${a.title}✨` : a.title }));
}
