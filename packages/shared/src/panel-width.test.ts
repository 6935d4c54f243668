import { describe, expect, it } from 'vitest';
import { clampPanelWidth, defaultPanelWidth, PANEL_MIN_WIDTH, panelMaxWidth } from './panel-width.js';

describe('right-panel width (spec 5 and 9)', () => {
  it('is clamped between 468 and 700 on screens under 1920 wide', () => {
    expect(PANEL_MIN_WIDTH).toBe(468);
    expect(panelMaxWidth(1919)).toBe(700);
    expect(clampPanelWidth(100, 1440)).toBe(468);
    expect(clampPanelWidth(600, 1440)).toBe(600);
    expect(clampPanelWidth(800, 1919)).toBe(700);
  });
  it('is clamped between 468 and 900 from 1920 up', () => {
    expect(panelMaxWidth(1920)).toBe(900);
    expect(clampPanelWidth(850, 1920)).toBe(850);
    expect(clampPanelWidth(2000, 2560)).toBe(900);
    expect(clampPanelWidth(0, 2560)).toBe(468);
  });
  it('defaults to 468, 548 or 708 by screen width, each inside its clamp', () => {
    expect(defaultPanelWidth(1280)).toBe(468);
    expect(defaultPanelWidth(1440)).toBe(548);
    expect(defaultPanelWidth(1920)).toBe(708);
    for (const w of [1024, 1280, 1440, 1600, 1920, 2560]) expect(clampPanelWidth(defaultPanelWidth(w), w)).toBe(defaultPanelWidth(w));
  });
});
