import { and, eq, gt, isNull, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { handoverTokens, wxScenes } from '../../db/schema/index.js';

export type WxSceneRow = typeof wxScenes.$inferSelect;

export class AuthRepo {
  constructor(private readonly db: DbOrTx) {}

  async insertScene(scene: string, createdAt: Date, expiresAt: Date) {
    await this.db.insert(wxScenes).values({ scene, createdAt, expiresAt });
  }

  async scene(scene: string): Promise<WxSceneRow | undefined> {
    const [row] = await this.db.select().from(wxScenes).where(eq(wxScenes.scene, scene));
    return row;
  }

  /** Records the first scan of a live scene; later scans of the same scene do not change the openid. */
  async markScanned(scene: string, openid: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(wxScenes)
      .set({ openid, scannedAt: now })
      .where(and(eq(wxScenes.scene, scene), isNull(wxScenes.scannedAt), gt(wxScenes.expiresAt, now)))
      .returning({ scene: wxScenes.scene });
    return rows.length === 1;
  }

  /** Consumes a scanned scene exactly once. */
  async useScene(scene: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(wxScenes)
      .set({ usedAt: now })
      .where(and(eq(wxScenes.scene, scene), isNull(wxScenes.usedAt), isNotNull(wxScenes.scannedAt), gt(wxScenes.expiresAt, now)))
      .returning({ scene: wxScenes.scene });
    return rows.length === 1;
  }

  async insertHandover(values: typeof handoverTokens.$inferInsert) {
    await this.db.insert(handoverTokens).values(values);
  }

  /** Marks a hand-over token used; returns its user only for the first use before expiry. */
  async useHandover(jti: string, now: Date, scene: string | null): Promise<number | undefined> {
    const [row] = await this.db
      .update(handoverTokens)
      .set({ usedAt: now, scene: sql`coalesce(${handoverTokens.scene}, ${scene})` })
      .where(and(eq(handoverTokens.jti, jti), isNull(handoverTokens.usedAt), gt(handoverTokens.expiresAt, now)))
      .returning({ userId: handoverTokens.userId });
    return row?.userId;
  }
}
