import { z } from 'zod';

/** Feature keys the product reads, with the value used when the payload has not loaded (or lacks the key). */
export const featureKeys = { agentState: 'agent-state' } as const;
export const defaultFeatureValues = { [featureKeys.agentState]: false } as const satisfies Record<string, unknown>;

/**
 * Targeting attributes the server sets from the session when it evaluates flags (POST /api/eval/:clientKey); a value
 * the client sends under one of these names is discarded, so nobody targets themselves into a flag.
 * `id`: the user id as a string (GrowthBook compares strictly), also the default hash attribute for rollouts;
 * `phone`: the full phone number (the client only has it masked); `vip`: VIP now; `tracks`: the selected topic tracks
 * (赛道); `platforms`: the platforms of the bound accounts. Logged out, none of them is set.
 */
export const featureAttributeNames = ['id', 'phone', 'vip', 'tracks', 'platforms'] as const;

const range = z.tuple([z.number().min(0).max(1), z.number().min(0).max(1)]);

/** A GrowthBook feature rule: the fields we check; anything newer the SDK understands passes through. */
export const featureRuleSchema = z
  .looseObject({
    id: z.string().optional(),
    condition: z.record(z.string(), z.unknown(), { error: 'condition 必须是对象' }).optional(),
    force: z.unknown().optional(),
    variations: z.array(z.unknown()).min(2, 'variations 至少2项').optional(),
    weights: z.array(z.number().min(0).max(1)).optional(),
    key: z.string().optional(),
    hashAttribute: z.string().optional(),
    fallbackAttribute: z.string().optional(),
    hashVersion: z.union([z.literal(1), z.literal(2)], { error: 'hashVersion 只能是 1 或 2' }).optional(),
    coverage: z.number().min(0, 'coverage 取值 0~1').max(1, 'coverage 取值 0~1').optional(),
    range: range.optional(),
    ranges: z.array(range).optional(),
    seed: z.string().optional(),
  })
  .refine((r) => !r.weights || !r.variations || r.weights.length === r.variations.length, 'weights 与 variations 数量必须一致');

export const featureDefinitionSchema = z.looseObject({
  defaultValue: z.unknown(),
  rules: z.array(featureRuleSchema).optional(),
});

export const featuresSchema = z.record(z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, '功能名只能包含字母、数字和 _ . : -，最多100个字符'), featureDefinitionSchema);
export type FeatureDefinitions = z.infer<typeof featuresSchema>;

/** GET /api/features: a GrowthBook SDK payload, served as is (not wrapped in the `{code, msg, data}` envelope). */
export const growthbookPayloadSchema = z.object({
  features: featuresSchema,
  dateUpdated: z.string().optional(),
});
export type GrowthbookPayload = z.infer<typeof growthbookPayloadSchema>;

/**
 * POST /api/eval/:clientKey: GrowthBook's remote evaluation request (the SDK with `remoteEval: true` sends it). Only
 * the attributes are read; forced variations and features are a development tool the server does not honour.
 */
export const featureEvalBody = z.looseObject({
  attributes: z.record(z.string(), z.unknown(), { error: 'attributes 必须是对象' }).optional(),
  forcedVariations: z.record(z.string(), z.unknown()).optional(),
  forcedFeatures: z.array(z.unknown()).optional(),
  url: z.string().max(2000, 'url 过长').optional(),
});
export type FeatureEvalBody = z.infer<typeof featureEvalBody>;
