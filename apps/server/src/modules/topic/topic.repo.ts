import { and, count, desc, eq, gte, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { topicCollections, topicFeeds, topicItems, topicMaps, topicSources, topicTracks, users } from '../../db/schema/index.js';

export type TrackRow = typeof topicTracks.$inferSelect;
export type ItemRow = typeof topicItems.$inferSelect;
export type ItemInsert = typeof topicItems.$inferInsert;
export type SourceRow = typeof topicSources.$inferSelect;
export type FeedRow = typeof topicFeeds.$inferSelect;

/** `%`, `_` and `\` typed by a user are literal characters in a LIKE pattern. */
const likeEscape = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface ItemFilter {
  since: Date;
  /** Items classified into this system track (top level or sub-track). */
  systemTrack?: string;
  /** Free words (a user track name or a typed keyword): title or summary contains one of them. */
  words?: string[];
  /** Leave out the bundled snapshot (a live source has data). */
  liveOnly?: boolean;
  /** Only items this source listed. */
  source?: string;
}

/** Every query of the topic area. */
export class TopicRepo {
  constructor(readonly db: Db) {}

  systemTracks(): Promise<TrackRow[]> {
    return this.db.select().from(topicTracks).where(isNull(topicTracks.userId)).orderBy(topicTracks.sort, topicTracks.id);
  }

  userTracks(userId: number): Promise<TrackRow[]> {
    return this.db.select().from(topicTracks).where(eq(topicTracks.userId, userId)).orderBy(topicTracks.sort, topicTracks.id);
  }

  async selection(userId: number) {
    const [row] = await this.db.select({ creatorType: users.creatorType, sys: users.sysTrackSelected, user: users.userTrackSelected }).from(users).where(eq(users.id, userId));
    return row;
  }

  /** The whole selection at once: user tracks not named are removed, new ones created, the profile lists rewritten. */
  async saveSelection(userId: number, sys: string[], own: string[]) {
    await this.db.transaction(async (tx) => {
      const existing = await tx.select().from(topicTracks).where(eq(topicTracks.userId, userId));
      const gone = existing.filter((t) => !own.includes(t.name)).map((t) => t.id);
      if (gone.length) await tx.delete(topicTracks).where(and(eq(topicTracks.userId, userId), inArray(topicTracks.id, gone)));
      const have = new Set(existing.map((t) => t.name));
      const fresh = own.filter((n) => !have.has(n));
      if (fresh.length) await tx.insert(topicTracks).values(fresh.map((name) => ({ userId, name, keywords: [name], sort: own.indexOf(name) })));
      for (const t of existing)
        if (own.includes(t.name))
          await tx
            .update(topicTracks)
            .set({ sort: own.indexOf(t.name) })
            .where(eq(topicTracks.id, t.id));
      await tx
        .update(users)
        .set({ sysTrackSelected: sys.join('|'), userTrackSelected: own.join('|') })
        .where(eq(users.id, userId));
    });
  }

  searchTracks(userId: number, keyword: string): Promise<TrackRow[]> {
    return this.db
      .select()
      .from(topicTracks)
      .where(
        and(
          or(isNull(topicTracks.userId), eq(topicTracks.userId, userId)),
          or(ilike(topicTracks.name, likeEscape(keyword)), sql`${topicTracks.keywords} @> ${JSON.stringify([keyword])}::jsonb`),
        ),
      )
      .orderBy(topicTracks.sort, topicTracks.id)
      .limit(20);
  }

  /** Admin CLI: a system track's keywords (and optionally a new one, under `parent`). */
  async upsertSystemTrack(name: string, keywords: string[], parent?: string) {
    let parentId: number | null = null;
    if (parent) {
      const [p] = await this.db
        .select()
        .from(topicTracks)
        .where(and(isNull(topicTracks.userId), isNull(topicTracks.parentId), eq(topicTracks.name, parent)));
      if (!p) throw new Error(`no top-level system track ${parent}`);
      parentId = p.id;
    }
    const [found] = await this.db
      .select()
      .from(topicTracks)
      .where(and(isNull(topicTracks.userId), eq(topicTracks.name, name), parentId === null ? isNull(topicTracks.parentId) : eq(topicTracks.parentId, parentId)));
    if (found) {
      await this.db.update(topicTracks).set({ keywords }).where(eq(topicTracks.id, found.id));
      return { id: found.id, created: false };
    }
    const [row] = await this.db.insert(topicTracks).values({ name, keywords, parentId, sort: 100 }).returning({ id: topicTracks.id });
    return { id: row!.id, created: true };
  }

  // Items

  recentItems(since: Date): Promise<ItemRow[]> {
    return this.db.select().from(topicItems).where(gte(topicItems.lastSeenAt, since));
  }

  byStoryKeys(keys: string[]): Promise<ItemRow[]> {
    return keys.length ? this.db.select().from(topicItems).where(inArray(topicItems.storyKey, keys)) : Promise.resolve([]);
  }

  async insertItem(v: ItemInsert): Promise<ItemRow> {
    const [row] = await this.db.insert(topicItems).values(v).returning();
    return row!;
  }

  async updateItem(id: number, v: Partial<ItemInsert>) {
    await this.db.update(topicItems).set(v).where(eq(topicItems.id, id));
  }

  async item(id: number): Promise<ItemRow | undefined> {
    const [row] = await this.db.select().from(topicItems).where(eq(topicItems.id, id));
    return row;
  }

  private where(f: ItemFilter): SQL | undefined {
    const conds: Array<SQL | undefined> = [gte(topicItems.lastSeenAt, f.since)];
    if (f.liveOnly) conds.push(eq(topicItems.snapshot, false));
    if (f.source) conds.push(sql`${topicItems.sources} @> ${JSON.stringify([{ source: f.source }])}::jsonb`);
    if (f.systemTrack) conds.push(sql`${topicItems.tracks} @> ${JSON.stringify([f.systemTrack])}::jsonb`);
    if (f.words?.length) conds.push(or(...f.words.flatMap((w) => [ilike(topicItems.title, likeEscape(w)), ilike(topicItems.summary, likeEscape(w))])));
    return and(...conds);
  }

  async listItems(f: ItemFilter, limit: number, offset: number) {
    const where = this.where(f);
    const [rows, [total]] = await Promise.all([
      this.db.select().from(topicItems).where(where).orderBy(desc(topicItems.score), desc(topicItems.id)).limit(limit).offset(offset),
      this.db.select({ n: count() }).from(topicItems).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async hasLive(since: Date): Promise<boolean> {
    const [row] = await this.db
      .select({ id: topicItems.id })
      .from(topicItems)
      .where(and(gte(topicItems.lastSeenAt, since), eq(topicItems.snapshot, false)))
      .limit(1);
    return !!row;
  }

  // Sources

  sourceStates(): Promise<SourceRow[]> {
    return this.db.select().from(topicSources);
  }

  async setSourceState(v: typeof topicSources.$inferInsert) {
    await this.db
      .insert(topicSources)
      .values(v)
      .onConflictDoUpdate({ target: topicSources.source, set: { lastFetchedAt: v.lastFetchedAt, ok: v.ok, error: v.error ?? null, itemCount: v.itemCount ?? 0 } });
  }

  // Feeds an operator added (admin CLI)

  feeds(onlyEnabled = false): Promise<FeedRow[]> {
    const q = this.db.select().from(topicFeeds);
    return (onlyEnabled ? q.where(eq(topicFeeds.enabled, true)) : q).orderBy(topicFeeds.id);
  }

  async feedByUrl(url: string): Promise<FeedRow | undefined> {
    const [row] = await this.db.select().from(topicFeeds).where(eq(topicFeeds.url, url));
    return row;
  }

  /** Undefined when the URL is already there (the unique index decides, so two concurrent adds cannot both land). */
  async insertFeed(v: { url: string; name: string; track: string | null }): Promise<FeedRow | undefined> {
    const [row] = await this.db.insert(topicFeeds).values(v).onConflictDoNothing({ target: topicFeeds.url }).returning();
    return row;
  }

  async setFeedEnabled(id: number, enabled: boolean): Promise<FeedRow | undefined> {
    const [row] = await this.db.update(topicFeeds).set({ enabled }).where(eq(topicFeeds.id, id)).returning();
    return row;
  }

  /** The feed and its refresh state go; stories it brought stay until they age out of the hot window. */
  async deleteFeed(id: number, sourceId: (url: string) => string): Promise<FeedRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.delete(topicFeeds).where(eq(topicFeeds.id, id)).returning();
      if (row) await tx.delete(topicSources).where(eq(topicSources.source, sourceId(row.url)));
      return row;
    });
  }

  // Collections

  async collect(userId: number, topicId: number) {
    await this.db.insert(topicCollections).values({ userId, topicId }).onConflictDoNothing();
  }

  async uncollect(userId: number, topicId: number) {
    await this.db.delete(topicCollections).where(and(eq(topicCollections.userId, userId), eq(topicCollections.topicId, topicId)));
  }

  async collectedIds(userId: number, topicIds: number[]): Promise<Set<number>> {
    if (!topicIds.length) return new Set();
    const rows = await this.db
      .select({ id: topicCollections.topicId })
      .from(topicCollections)
      .where(and(eq(topicCollections.userId, userId), inArray(topicCollections.topicId, topicIds)));
    return new Set(rows.map((r) => r.id));
  }

  async collections(userId: number, limit: number, offset: number) {
    const where = eq(topicCollections.userId, userId);
    const [rows, [total]] = await Promise.all([
      this.db
        .select({ item: topicItems, collectedAt: topicCollections.createdAt })
        .from(topicCollections)
        .innerJoin(topicItems, eq(topicItems.id, topicCollections.topicId))
        .where(where)
        .orderBy(desc(topicCollections.createdAt), desc(topicCollections.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ n: count() }).from(topicCollections).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  // Divergent maps

  async saveMap(userId: number, v: { id?: number; title: string; data: unknown }, now: Date) {
    if (v.id !== undefined) {
      const [row] = await this.db
        .update(topicMaps)
        .set({ title: v.title, data: v.data, updatedAt: now })
        .where(and(eq(topicMaps.id, v.id), eq(topicMaps.userId, userId)))
        .returning();
      return row;
    }
    const [row] = await this.db.insert(topicMaps).values({ userId, title: v.title, data: v.data, createdAt: now, updatedAt: now }).returning();
    return row;
  }

  listMaps(userId: number) {
    return this.db
      .select({ id: topicMaps.id, title: topicMaps.title, createdAt: topicMaps.createdAt, updatedAt: topicMaps.updatedAt })
      .from(topicMaps)
      .where(eq(topicMaps.userId, userId))
      .orderBy(desc(topicMaps.updatedAt))
      .limit(100);
  }

  async map(userId: number, id: number) {
    const [row] = await this.db
      .select()
      .from(topicMaps)
      .where(and(eq(topicMaps.id, id), eq(topicMaps.userId, userId)));
    return row;
  }

  async deleteMap(userId: number, id: number) {
    const rows = await this.db
      .delete(topicMaps)
      .where(and(eq(topicMaps.id, id), eq(topicMaps.userId, userId)))
      .returning({ id: topicMaps.id });
    return rows.length > 0;
  }
}
