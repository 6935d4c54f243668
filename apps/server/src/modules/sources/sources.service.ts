import type { DbOrTx } from '../../db/client.js';
import type { InvalidationBus } from '../../cache/bus.js';
import { SourceSwitchRepo, type SourceKind, type SourceSwitchRow } from './sources.repo.js';

const RELOAD_MS = 30_000;
const BUS_TOPIC = 'source-switches';

/**
 * Which configured sources an operator switched off. Read at use time (writing's online search, the topic refresh and
 * hot list); cached, dropped at once in this process after a change and through the cache bus in the others.
 */
export class SourceSwitches {
  private rows: SourceSwitchRow[] | null = null;
  private loadedAt = 0;

  constructor(
    private readonly repo: SourceSwitchRepo,
    private readonly bus?: InvalidationBus,
  ) {
    bus?.subscribe(BUS_TOPIC, () => (this.rows = null));
    bus?.onReset(() => (this.rows = null));
  }

  async all(): Promise<SourceSwitchRow[]> {
    if (!this.rows || Date.now() - this.loadedAt > RELOAD_MS) {
      this.rows = await this.repo.list();
      this.loadedAt = Date.now();
    }
    return this.rows;
  }

  /** False only when an operator switched the source off. */
  async isOn(kind: SourceKind, sourceId: string): Promise<boolean> {
    return !(await this.all()).some((r) => r.kind === kind && r.sourceId === sourceId && !r.enabled);
  }

  /** The ids of `kind` switched off. */
  async off(kind: SourceKind): Promise<Set<string>> {
    return new Set((await this.all()).filter((r) => r.kind === kind && !r.enabled).map((r) => r.sourceId));
  }

  /** Inside the caller's transaction (with its audit entry); call `changed()` once it has committed. */
  async setIn(tx: DbOrTx, kind: SourceKind, sourceId: string, enabled: boolean): Promise<void> {
    await new SourceSwitchRepo(tx).set(kind, sourceId, enabled);
  }

  changed(): void {
    this.rows = null;
    this.bus?.publish(BUS_TOPIC, '*');
  }
}
