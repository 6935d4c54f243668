import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrowthBook } from '@growthbook/growthbook';
import { eq } from 'drizzle-orm';
import { TOKEN_NAME } from '@inkstone/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loginByPhone, nextPhone } from '../../test/auth-helpers.js';
import { platformAccounts, users } from '../../db/schema/index.js';
import { describeOnDatabases } from '../../test/database.js';
import { ConfigError, loadConfig } from '../../config.js';
import { createContainer } from '../../container.js';
import { FlagsService, loadFeaturesPayload } from './flags.service.js';

const dir = mkdtempSync(path.join(tmpdir(), 'inkstone-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileCounter = 0;
const featuresFile = (content: unknown) => {
  const file = path.join(dir, `features-${++fileCounter}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};

const targeted = {
  'agent-state': {
    defaultValue: false,
    rules: [
      { id: 'by-id', condition: { id: { $in: ['7', '42'] } }, force: true },
      { id: 'by-phone', condition: { phone: '13800138000' }, force: true },
    ],
  },
  'new-editor': {
    defaultValue: 'classic',
    rules: [{ key: 'new-editor', variations: ['classic', 'tiptap'], weights: [0.5, 0.5], hashAttribute: 'id', hashVersion: 2, coverage: 1 }],
  },
};

/** The real client: GrowthBook loading from our server, with attributes as the web app sets them (id as a string). */
async function evaluate(url: string, attributes: { id?: string; phone?: string }) {
  const gb = new GrowthBook({ apiHost: url, clientKey: 'inkstone', attributes, disableCache: true });
  await gb.init({ timeout: 3000 });
  const result = { agentState: gb.isOn('agent-state'), newEditor: gb.getFeatureValue('new-editor', 'missing') };
  gb.destroy();
  return result;
}

describeOnDatabases('feature flags on %s', (dbKind) => {
  describe('with built-in defaults', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ db: dbKind });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('serves the GrowthBook payload unwrapped, without login', async () => {
      const res = await fetch(`${t.url}/api/features`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      expect(await res.json()).toEqual({ features: { 'agent-state': { defaultValue: false } } });
      // The path the GrowthBook SDK derives from apiHost + clientKey.
      expect(await (await fetch(`${t.url}/api/features/anything`)).json()).toEqual({ features: { 'agent-state': { defaultValue: false } } });
    });

    it('evaluates to off in the GrowthBook SDK', async () => {
      expect(await evaluate(t.url, { id: '7' })).toEqual({ agentState: false, newEditor: 'missing' });
    });
  });

  describe('with FEATURES_FILE', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ db: dbKind, env: { FEATURES_FILE: featuresFile(targeted) } });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('serves the file content with a version stamp', async () => {
      const body = (await (await fetch(`${t.url}/api/features`)).json()) as { features: unknown; dateUpdated: string };
      expect(body.features).toEqual(targeted);
      expect(new Date(body.dateUpdated).toISOString()).toBe(body.dateUpdated);
    });

    it('serves the file as written: a GrowthBook client that loads it reads the id and phone rules and the hashed split unchanged', async () => {
      expect((await evaluate(t.url, { id: '42' })).agentState).toBe(true);
      expect((await evaluate(t.url, { id: '8', phone: '13800138000' })).agentState).toBe(true);
      expect((await evaluate(t.url, { id: '8', phone: '13900139000' })).agentState).toBe(false);
      expect((await evaluate(t.url, {})).agentState).toBe(false);
      const editors = new Set<unknown>();
      for (let id = 1; id <= 40; id++) editors.add((await evaluate(t.url, { id: String(id) })).newEditor);
      expect(editors).toEqual(new Set(['classic', 'tiptap']));
    });
  });
});

/** Rules on what only the server knows; the last one names an id nobody has, for a client to claim. */
const targetedPhone = nextPhone();
const serverSide = {
  'agent-state': { defaultValue: false, rules: [{ id: 'by-phone', condition: { phone: targetedPhone }, force: true }] },
  'logged-in': { defaultValue: false, rules: [{ condition: { id: { $exists: true } }, force: true }] },
  'vip-only': { defaultValue: false, rules: [{ condition: { vip: true }, force: true }] },
  'mother-track': { defaultValue: 'off', rules: [{ condition: { tracks: { $in: ['母婴'] } }, force: 'on' }] },
  'xhs-users': { defaultValue: false, rules: [{ condition: { platforms: { $in: ['xiaohongshu'] } }, force: true }] },
  'staff-only': { defaultValue: false, rules: [{ condition: { id: { $in: ['999999'] } }, force: true }] },
};

/** The real SDK in remote-evaluation mode, as the web runs it: the session header goes with the request. */
async function evaluateRemote(url: string, token: string | null, attributes: Record<string, unknown>) {
  const gb = new GrowthBook({
    apiHost: url,
    clientKey: 'inkstone',
    attributes,
    remoteEval: true,
    apiHostRequestHeaders: token ? { [TOKEN_NAME]: token } : {},
    disableCache: true,
  });
  await gb.init({ timeout: 3000 });
  const result = Object.fromEntries(Object.keys(serverSide).map((k) => [k, gb.getFeatureValue(k, null as unknown)]));
  gb.destroy();
  return result;
}

describeOnDatabases('server-side flag targeting on %s', (dbKind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: dbKind, env: { FEATURES_FILE: featuresFile(serverSide) } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('evaluates id, full phone, VIP, tracks and bound platforms on the server; what the client claims counts for nothing', async () => {
    const plain = await loginByPhone(t);
    const targeted = await loginByPhone(t, targetedPhone);
    // The client only ever sees the masked phone, so a phone rule can only match on the server.
    expect(targeted.user.phone).not.toBe(targetedPhone);

    const off = { 'agent-state': false, 'logged-in': false, 'vip-only': false, 'mother-track': 'off', 'xhs-users': false, 'staff-only': false };
    expect(await evaluateRemote(t.url, null, {})).toEqual(off);
    // Logged out, claiming to be someone: server-owned attributes from the client are dropped.
    expect(await evaluateRemote(t.url, null, { id: '999999', phone: targetedPhone, vip: true, tracks: ['母婴'], platforms: ['xiaohongshu'] })).toEqual(off);

    expect(await evaluateRemote(t.url, targeted.tokenValue, { id: String(targeted.user.id) })).toEqual({ ...off, 'agent-state': true, 'logged-in': true });
    expect(await evaluateRemote(t.url, plain.tokenValue, { id: '999999', phone: targetedPhone, vip: true })).toEqual({ ...off, 'logged-in': true });

    // VIP, a chosen track and a bound 小红书 account turn their flags on for that user only.
    await t.container.db
      .update(users)
      .set({ vipType: 'vip', vipExpiredAt: new Date(Date.now() + 86_400_000) })
      .where(eq(users.id, plain.user.id));
    const saved = await t.call('POST', '/topic/v3/track/save', { token: plain.tokenValue, body: { userTrack: ['母婴'] } });
    expect(saved.code, saved.msg).toBe(0);
    await t.container.db.insert(platformAccounts).values({ userId: plain.user.id, platform: 'xiaohongshu', platformUserId: 'x-1', accountName: '母婴号' });
    expect(await evaluateRemote(t.url, plain.tokenValue, {})).toEqual({ ...off, 'logged-in': true, 'vip-only': true, 'mother-track': 'on', 'xhs-users': true });
    expect(await evaluateRemote(t.url, targeted.tokenValue, {})).toEqual({ ...off, 'agent-state': true, 'logged-in': true });

    // An expired VIP and an unbound account no longer count.
    await t.container.db
      .update(users)
      .set({ vipExpiredAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, plain.user.id));
    await t.container.db.update(platformAccounts).set({ unboundAt: new Date() }).where(eq(platformAccounts.userId, plain.user.id));
    expect(await evaluateRemote(t.url, plain.tokenValue, {})).toEqual({ ...off, 'logged-in': true, 'mother-track': 'on' });
  });

  it('answers values, never the rules, and not for shared caches; bad input is 1001', async () => {
    const res = await fetch(`${t.url}/api/eval/inkstone`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ attributes: {} }) });
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const text = await res.text();
    expect(text).not.toContain(targetedPhone);
    expect(text).not.toContain('rules');
    expect((JSON.parse(text) as { features: unknown }).features).toMatchObject({ 'agent-state': { defaultValue: false } });
    const bad = await t.call('POST', '/eval/inkstone', { body: { attributes: [1] } });
    expect(bad.code).toBe(1001);
    expect(bad.msg).toContain('attributes');
  });
});

describe('FEATURES_FILE loading', () => {
  it('keeps defaults the file does not mention and lets the file override them', () => {
    const extra = loadFeaturesPayload(loadConfig({ FEATURES_FILE: featuresFile({ 'dark-mode': { defaultValue: true } }) }));
    expect(extra.features).toEqual({ 'agent-state': { defaultValue: false }, 'dark-mode': { defaultValue: true } });
    const on = loadFeaturesPayload(loadConfig({ FEATURES_FILE: featuresFile({ 'agent-state': { defaultValue: true } }) }));
    expect(on.features['agent-state']).toEqual({ defaultValue: true });
    expect(loadFeaturesPayload(loadConfig({ FEATURES_FILE: '' }))).toEqual({ features: { 'agent-state': { defaultValue: false } } });
  });

  it('fails start-up with a message naming FEATURES_FILE', async () => {
    const bad: [string, RegExp][] = [
      [path.join(dir, 'missing.json'), /cannot read \(ENOENT\)/],
      [featuresFile('{"agent-state": '), /not valid JSON/],
      [featuresFile([1, 2]), /\(root\)/],
      [featuresFile({ 'agent-state': 'on' }), /agent-state/],
      [featuresFile({ 'agent-state': { defaultValue: false, rules: [{ coverage: 3 }] } }), /agent-state\.rules\.0\.coverage/],
      [featuresFile({ x: { defaultValue: 'a', rules: [{ variations: ['a', 'b'], weights: [1] }] } }), /weights/],
      [featuresFile({ 'bad key!': { defaultValue: 1 } }), /bad key!/],
    ];
    for (const [file, reason] of bad) {
      const config = loadConfig({ FEATURES_FILE: file, LOG_LEVEL: 'silent' });
      const attempt = createContainer(config);
      await expect(attempt).rejects.toThrow(ConfigError);
      await expect(attempt).rejects.toThrow(/FEATURES_FILE/);
      await expect(attempt).rejects.toThrow(reason);
    }
  });
});

/** FNV-1a, 32 bits: the hash GrowthBook buckets with, written out here so the test does not ask the SDK what it does. */
function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h >>> 0;
}

/** Spec section 9: hash version 1 is fnv(value + seed) % 1000 / 1000; version 2 is fnv(fnv(seed + value)) % 10000 / 10000. */
const bucketOf = (seed: string, value: string, version: 1 | 2) =>
  version === 2 ? (fnv1a32(String(fnv1a32(seed + value))) % 10000) / 10000 : (fnv1a32(value + seed) % 1000) / 1000;

describe('default flag bucketing (spec 9: range coverage 1, hash versions 1 or 2)', () => {
  it('the server evaluation puts every user in the experiment and buckets them by hash version 1 unless a rule asks for 2', async () => {
    // Rules as an operator writes them: no coverage, and a hash version only on the second experiment.
    const split = (key: string, hashVersion?: 2) => ({
      defaultValue: 'outside',
      rules: [{ key, variations: ['a', 'b', 'c'], weights: [0.2, 0.3, 0.5], hashAttribute: 'id', ...(hashVersion ? { hashVersion } : {}) }],
    });
    const flags = FlagsService.fromConfig(loadConfig({ FEATURES_FILE: featuresFile({ 'split-v1': split('split-v1'), 'split-v2': split('split-v2', 2) }) }));
    flags.useAttributes(async (userId) => ({ id: String(userId), phone: '', vip: false, tracks: [], platforms: [] }));
    // Range coverage 1: the ranges fill [0, 1) back to back, so no hash falls outside them.
    const variation = (n: number) => (n < 0.2 ? 'a' : n < 0.5 ? 'b' : 'c');
    const got = { v1: [] as unknown[], v2: [] as unknown[] };
    const want = { v1: [] as string[], v2: [] as string[] };
    for (let id = 1; id <= 300; id++) {
      const { features } = await flags.evaluateFor(id);
      got.v1.push(features['split-v1']?.defaultValue);
      got.v2.push(features['split-v2']?.defaultValue);
      want.v1.push(variation(bucketOf('split-v1', String(id), 1)));
      want.v2.push(variation(bucketOf('split-v2', String(id), 2)));
    }
    expect(got.v1).toEqual(want.v1);
    expect(got.v2).toEqual(want.v2);
    expect(got.v1).not.toContain('outside');
    expect(new Set(got.v2)).toEqual(new Set(['a', 'b', 'c']));
    // The two hash versions really do bucket differently.
    expect(want.v1).not.toEqual(want.v2);
  });
});
