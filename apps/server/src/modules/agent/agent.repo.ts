import { and, asc, desc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { agentActions, agentConversations, agentEvents, agentMessages, agentTurns } from '../../db/schema/index.js';

export type ConversationRow = typeof agentConversations.$inferSelect;
export type MessageRow = typeof agentMessages.$inferSelect;
export type TurnRow = typeof agentTurns.$inferSelect;
export type ActionRow = typeof agentActions.$inferSelect;
export type EventRow = typeof agentEvents.$inferSelect;

/** Every query of the agent area; rows of a conversation are read only through its owner. */
export class AgentRepo {
  constructor(readonly db: Db) {}

  async conversations(userId: number, limit: number): Promise<ConversationRow[]> {
    return this.db
      .select()
      .from(agentConversations)
      .where(eq(agentConversations.userId, userId))
      .orderBy(desc(agentConversations.updatedAt), desc(agentConversations.id))
      .limit(limit);
  }

  async conversation(userId: number, id: number): Promise<ConversationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(agentConversations)
      .where(and(eq(agentConversations.id, id), eq(agentConversations.userId, userId)));
    return row;
  }

  async createConversation(tx: DbOrTx, userId: number, title: string, now: Date): Promise<ConversationRow> {
    const [row] = await tx.insert(agentConversations).values({ userId, title, createdAt: now, updatedAt: now }).returning();
    return row!;
  }

  async touchConversation(tx: DbOrTx, id: number, now: Date): Promise<void> {
    await tx.update(agentConversations).set({ updatedAt: now }).where(eq(agentConversations.id, id));
  }

  async renameConversation(userId: number, id: number, title: string): Promise<boolean> {
    const rows = await this.db
      .update(agentConversations)
      .set({ title })
      .where(and(eq(agentConversations.id, id), eq(agentConversations.userId, userId)))
      .returning({ id: agentConversations.id });
    return rows.length === 1;
  }

  async deleteConversation(userId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(agentConversations)
      .where(and(eq(agentConversations.id, id), eq(agentConversations.userId, userId)))
      .returning({ id: agentConversations.id });
    return rows.length === 1;
  }

  async messages(conversationId: number): Promise<MessageRow[]> {
    return this.db.select().from(agentMessages).where(eq(agentMessages.conversationId, conversationId)).orderBy(asc(agentMessages.id));
  }

  async addMessage(tx: DbOrTx, m: typeof agentMessages.$inferInsert): Promise<MessageRow> {
    const [row] = await tx.insert(agentMessages).values(m).returning();
    return row!;
  }

  async turns(conversationId: number): Promise<TurnRow[]> {
    return this.db.select().from(agentTurns).where(eq(agentTurns.conversationId, conversationId)).orderBy(asc(agentTurns.createdAt));
  }

  async turn(id: string): Promise<TurnRow | undefined> {
    const [row] = await this.db.select().from(agentTurns).where(eq(agentTurns.id, id));
    return row;
  }

  /** A turn still queued or running in this conversation (one at a time keeps the history in order). */
  async openTurn(conversationId: number, staleBefore: Date): Promise<TurnRow | undefined> {
    const [row] = await this.db
      .select()
      .from(agentTurns)
      .where(
        and(eq(agentTurns.conversationId, conversationId), or(eq(agentTurns.status, 'queued'), and(eq(agentTurns.status, 'running'), gt(agentTurns.heartbeatAt, staleBefore)))),
      );
    return row;
  }

  async insertTurn(tx: DbOrTx, t: typeof agentTurns.$inferInsert): Promise<void> {
    await tx.insert(agentTurns).values(t);
  }

  /** Queued, or running with a heartbeat older than staleBefore (its worker died): one caller wins. */
  async claimTurn(id: string, now: Date, staleBefore: Date): Promise<TurnRow | undefined> {
    const [row] = await this.db
      .update(agentTurns)
      .set({ status: 'running', heartbeatAt: now })
      .where(and(eq(agentTurns.id, id), or(eq(agentTurns.status, 'queued'), and(eq(agentTurns.status, 'running'), lt(agentTurns.heartbeatAt, staleBefore)))))
      .returning();
    return row;
  }

  async heartbeat(id: string, now: Date): Promise<void> {
    await this.db
      .update(agentTurns)
      .set({ heartbeatAt: now })
      .where(and(eq(agentTurns.id, id), eq(agentTurns.status, 'running')));
  }

  /** The single transition out of queued/running: true for exactly one caller, so a refund follows at most once. */
  async finishTurn(tx: DbOrTx, id: string, values: Partial<typeof agentTurns.$inferInsert> & { status: 'done' | 'failed' }): Promise<TurnRow | undefined> {
    const [row] = await tx
      .update(agentTurns)
      .set(values)
      .where(and(eq(agentTurns.id, id), inArray(agentTurns.status, ['queued', 'running'])))
      .returning();
    return row;
  }

  /** Turns whose worker stopped heartbeating (or that never started): the recovery sweep re-enqueues them. */
  async staleTurns(staleBefore: Date, queuedBefore: Date): Promise<TurnRow[]> {
    return this.db
      .select()
      .from(agentTurns)
      .where(or(and(eq(agentTurns.status, 'running'), lt(agentTurns.heartbeatAt, staleBefore)), and(eq(agentTurns.status, 'queued'), lt(agentTurns.createdAt, queuedBefore))));
  }

  async appendEvent(tx: DbOrTx, turnId: string, type: string, data: Record<string, unknown>): Promise<void> {
    await tx.insert(agentEvents).values({ turnId, type, data });
  }

  async eventsAfter(turnId: string, after: number, limit: number): Promise<EventRow[]> {
    return this.db
      .select()
      .from(agentEvents)
      .where(and(eq(agentEvents.turnId, turnId), gt(agentEvents.id, after)))
      .orderBy(asc(agentEvents.id))
      .limit(limit);
  }

  async insertAction(tx: DbOrTx, a: typeof agentActions.$inferInsert): Promise<ActionRow> {
    const [row] = await tx.insert(agentActions).values(a).returning();
    return row!;
  }

  async action(userId: number, id: string): Promise<ActionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(agentActions)
      .where(and(eq(agentActions.id, id), eq(agentActions.userId, userId)));
    return row;
  }

  async actions(conversationId: number): Promise<ActionRow[]> {
    return this.db.select().from(agentActions).where(eq(agentActions.conversationId, conversationId)).orderBy(asc(agentActions.createdAt));
  }

  /** Moves an action out of `from` exactly once: of two clicks racing, one wins and the other changes nothing. */
  async decide(tx: DbOrTx, id: string, from: ActionRow['status'], values: Partial<typeof agentActions.$inferInsert>): Promise<ActionRow | undefined> {
    const [row] = await tx
      .update(agentActions)
      .set(values)
      .where(and(eq(agentActions.id, id), eq(agentActions.status, from)))
      .returning();
    return row;
  }

  /** How many pending actions a user has (the agent home shows them). */
  async pendingCount(userId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(agentActions)
      .where(and(eq(agentActions.userId, userId), eq(agentActions.status, 'pending')));
    return Number(row?.n ?? 0);
  }
}
