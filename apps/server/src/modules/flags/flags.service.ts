import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { GrowthBook, type FeatureDefinition } from '@growthbook/growthbook';
import { defaultFeatureValues, featureAttributeNames, featuresSchema, type FeatureDefinitions, type GrowthbookPayload } from '@inkstone/shared';
import { ConfigError, type Config } from '../../config.js';

/** Every flag off: the product works fully without a FEATURES_FILE. */
export const defaultFeatures: FeatureDefinitions = Object.fromEntries(Object.entries(defaultFeatureValues).map(([key, defaultValue]) => [key, { defaultValue }]));

const invalid = (file: string, reason: string) => new ConfigError(`Invalid configuration:\n  FEATURES_FILE: ${file}: ${reason}`);

/**
 * Reads FEATURES_FILE (a JSON object of GrowthBook feature definitions) once. Features it names
 * replace the defaults; defaults it leaves out are still served, so the client never loses a key.
 */
export function loadFeaturesPayload(config: Pick<Config, 'FEATURES_FILE'>): GrowthbookPayload {
  const file = config.FEATURES_FILE;
  if (!file) return { features: defaultFeatures };
  const resolved = path.resolve(file);
  let raw: string;
  let updated: Date;
  try {
    raw = readFileSync(resolved, 'utf8');
    updated = statSync(resolved).mtime;
  } catch (err) {
    throw invalid(file, `cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw invalid(file, `not valid JSON (${(err as Error).message})`);
  }
  const parsed = featuresSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(file, `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  // The SDK uses dateUpdated as the payload version: an unchanged file keeps clients' caches.
  return { features: { ...defaultFeatures, ...parsed.data }, dateUpdated: updated.toISOString() };
}

/** The server-side targeting attributes of a user (names in `featureAttributeNames`). */
export interface ServerFlagAttributes {
  id: string;
  phone: string;
  vip: boolean;
  tracks: string[];
  platforms: string[];
}

/** Where the attributes come from (users and publishing, wired by the container); null for a user that is gone. */
export type FlagAttributeSource = (userId: number) => Promise<ServerFlagAttributes | null>;

const serverOwned = new Set<string>(featureAttributeNames);

export class FlagsService {
  private attributesOf: FlagAttributeSource = async () => null;

  constructor(readonly payload: GrowthbookPayload) {}

  static fromConfig(config: Pick<Config, 'FEATURES_FILE'>): FlagsService {
    return new FlagsService(loadFeaturesPayload(config));
  }

  /** Set once by the container: flags are built before the database is open (a bad FEATURES_FILE stops start-up first). */
  useAttributes(source: FlagAttributeSource): void {
    this.attributesOf = source;
  }

  /**
   * GrowthBook remote evaluation: the payload's rules run here, on the real SDK, with the attributes only the server
   * knows (full phone, VIP, tracks, bound platforms), and the client receives each feature's value without its rules.
   * Attributes the client sends under a server-owned name are dropped; the rest (device, browser) pass through.
   */
  async evaluateFor(userId: number | null, clientAttributes: Record<string, unknown> = {}): Promise<GrowthbookPayload> {
    const attributes: Record<string, unknown> = Object.fromEntries(Object.entries(clientAttributes).filter(([k]) => !serverOwned.has(k)));
    const own = userId === null ? null : await this.attributesOf(userId);
    if (own) Object.assign(attributes, own);
    // The file passed featuresSchema at start-up; the SDK's own rule types are narrower than that schema's loose objects.
    const gb = new GrowthBook({ features: this.payload.features as Record<string, FeatureDefinition>, attributes, enableDevMode: false });
    try {
      const features: FeatureDefinitions = {};
      for (const key of Object.keys(this.payload.features)) features[key] = { defaultValue: gb.evalFeature(key).value };
      return this.payload.dateUpdated ? { features, dateUpdated: this.payload.dateUpdated } : { features };
    } finally {
      gb.destroy();
    }
  }
}
