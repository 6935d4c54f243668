/** Right-panel width rules of spec sections 5 and 9. */
export const PANEL_MIN_WIDTH = 468;

export function panelMaxWidth(screenWidth: number): number {
  return screenWidth < 1920 ? 700 : 900;
}

export function clampPanelWidth(width: number, screenWidth: number): number {
  return Math.min(panelMaxWidth(screenWidth), Math.max(PANEL_MIN_WIDTH, width));
}

/** Default width by screen size: 468 on small screens, 548 on common laptops, 708 from 1920 up. */
export function defaultPanelWidth(screenWidth: number): number {
  if (screenWidth >= 1920) return 708;
  if (screenWidth >= 1440) return 548;
  return 468;
}
