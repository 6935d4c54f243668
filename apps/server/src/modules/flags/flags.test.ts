import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrowthBook } from '@growthbook/growthbook';
import { startTestApp, type TestApp } from '../../test/app.js';
import { testDbKinds } from '../../test/database.js';
import { ConfigError, loadConfig } from '../../config.js';
import { createContainer } from '../../container.js';
import { loadFeaturesPayload } from './flags.service.js';

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

describe.each(testDbKinds)('feature flags on %s', (dbKind) => {
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

    it('targets users by the id and phone attributes on the client', async () => {
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
