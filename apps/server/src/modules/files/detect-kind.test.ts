import { describe, expect, it } from 'vitest';
import { detectKind } from './files.service.js';

describe('detectKind on the head of a partly read upload', () => {
  it('takes Chinese text as text wherever the head ends inside a character', async () => {
    const full = Buffer.from('砚台研墨，字字入心。'.repeat(200));
    // Every cut of the last character (1 or 2 of its 3 bytes), at the sizes the upload reader hands over.
    for (const n of [4099, 4100, 4101, 4102, 4103]) {
      expect(await detectKind(full.subarray(0, n), false), `head of ${n} bytes`).toBe('text');
    }
  });

  it('still refuses bytes that are not UTF-8 and a complete file cut mid-character', async () => {
    expect(await detectKind(Buffer.from([0x61, 0x62, 0x80, 0x80, 0x63, 0x64, 0x65, 0x66]), false)).toBeNull();
    expect(await detectKind(Buffer.from('砚台').subarray(0, 4), true)).toBeNull();
  });
});
