/** A write waiting in a group commit: failed on its own when the database refuses it. */
export interface WaitingWrite {
  fail(err: unknown): void;
}

/**
 * Stores what waits in `queue` (taken from it, at most `max` at a time) until it is empty, writes that arrive meanwhile
 * included. A batch the database refuses is stored again one by one: one bad write fails alone, not every write that
 * shared its statement. Shared by TaskWriter (running tasks' streams) and TaskInserter (creates).
 */
export async function storeInBatches<T extends WaitingWrite>(queue: T[], max: number, store: (batch: T[]) => Promise<void>): Promise<void> {
  while (queue.length) {
    const batch = queue.splice(0, max);
    try {
      await store(batch);
    } catch (err) {
      if (batch.length === 1) batch[0]!.fail(err);
      else for (const one of batch) await store([one]).catch((e: unknown) => one.fail(e));
    }
  }
}
