import { describe, expect, it } from 'vitest';
import { brandsFor, deviceProfileFor, fingerprintFor, splitSession, userAgentFor } from './fingerprint.js';

const header = (version: string) =>
  brandsFor(version)
    .map((b) => `"${b.brand}";v="${b.version}"`)
    .join(', ');

describe('browser fingerprint', () => {
  it('builds the sec-ch-ua list a real Chrome of that version sends', () => {
    // Captured from Google Chrome 120 and 124 on Windows: the grease brand, its version and the order all change.
    expect(header('120.0.6099.130')).toBe('"Not_A Brand";v="8", "Chromium";v="120", "Google Chrome";v="120"');
    expect(header('124.0.6367.91')).toBe('"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"');
    // The grease brand of 156 is the one the Debian Chromium 156 here reports of itself.
    expect(header('156.0.8078.108')).toBe('"Not:A-Brand";v="8", "Chromium";v="156", "Google Chrome";v="156"');
    expect(brandsFor('156.0.8078.108', true)).toContainEqual({ brand: 'Google Chrome', version: '156.0.8078.108' });
  });

  it('claims a desktop Chrome of the running major version, never headless', () => {
    expect(userAgentFor('156.0.8078.108')).toBe('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36');
    expect(() => userAgentFor('HeadlessChrome')).toThrow(/not a Chromium version/);
  });

  it('gives a key the same device every time, and different keys a spread of devices', () => {
    expect(fingerprintFor('acct:42', '156.0.8078.108')).toEqual(fingerprintFor('acct:42', '156.0.8078.108'));
    const devices = Array.from({ length: 40 }, (_, i) => deviceProfileFor(`acct:${i}`));
    expect(new Set(devices.map((d) => `${d.screen.width}x${d.screen.height}@${d.deviceScaleFactor}`)).size).toBeGreaterThan(3);
    expect(new Set(devices.map((d) => d.hardwareConcurrency)).size).toBeGreaterThan(1);
    for (const d of devices) {
      // A maximised window: as wide as the screen, shorter by the taskbar and the browser's own bars.
      expect(d.viewport.width).toBe(d.screen.width);
      expect(d.viewport.height).toBeLessThan(d.screen.height);
      // Mainland China.
      expect(d.geolocation.latitude).toBeGreaterThan(18);
      expect(d.geolocation.latitude).toBeLessThan(54);
      expect(d.geolocation.longitude).toBeGreaterThan(73);
      expect(d.geolocation.longitude).toBeLessThan(135);
    }
  });

  it('splits the device stored with a session from the storage state, ignoring one that is not a device', () => {
    const device = deviceProfileFor('acct:7');
    const cookies = [{ name: 'a', value: 'b', domain: 'x.test', path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' as const }];
    expect(splitSession(JSON.stringify({ cookies, origins: [], fingerprint: device }))).toEqual({ storageState: { cookies, origins: [] }, profile: device });
    expect(splitSession(JSON.stringify({ cookies, origins: [], fingerprint: { ...device, screen: { width: 'wide' } } }))).toEqual({
      storageState: { cookies, origins: [] },
      profile: null,
    });
    expect(splitSession(JSON.stringify({ cookies, origins: [] }))).toEqual({ storageState: { cookies, origins: [] }, profile: null });
    expect(splitSession(null)).toEqual({ storageState: undefined, profile: null });
  });
});
