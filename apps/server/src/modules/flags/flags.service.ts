import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { defaultFeatureValues, featuresSchema, type FeatureDefinitions, type GrowthbookPayload } from '@inkstone/shared';
import { ConfigError, type Config } from '../../config.js';

/** Every flag off: the product works fully without a FEATURES_FILE. */
export const defaultFeatures: FeatureDefinitions = Object.fromEntries(
  Object.entries(defaultFeatureValues).map(([key, defaultValue]) => [key, { defaultValue }]),
);

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

export class FlagsService {
  constructor(readonly payload: GrowthbookPayload) {}

  static fromConfig(config: Pick<Config, 'FEATURES_FILE'>): FlagsService {
    return new FlagsService(loadFeaturesPayload(config));
  }
}
