import { useEffect, useState } from 'react';
import { clampPanelWidth, defaultPanelWidth, PANEL_MIN_WIDTH, panelMaxWidth } from '@inkstone/shared';

const STEP = 20;

/** Right-panel width (spec section 5): default by screen width, clamped on drag, keys and window resize. */
export function usePanelWidth() {
  const [screen, setScreen] = useState(() => window.innerWidth);
  const [width, setWidth] = useState(() => defaultPanelWidth(window.innerWidth));
  useEffect(() => {
    const onResize = () => setScreen(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  const clamped = clampPanelWidth(width, screen);
  return { width: clamped, screen, setWidth: (w: number) => setWidth(clampPanelWidth(w, screen)) };
}

export function PanelResizer(props: { width: number; screen: number; onChange(w: number): void }) {
  const { width, screen, onChange } = props;
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    const startX = e.clientX;
    const startW = width;
    const move = (ev: PointerEvent) => onChange(startW + (startX - ev.clientX));
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    // The panel is on the right: moving the handle left widens it.
    const delta = { ArrowLeft: STEP, ArrowRight: -STEP, Home: Infinity, End: -Infinity } as Record<string, number>;
    if (!(e.key in delta)) return;
    e.preventDefault();
    const d = delta[e.key]!;
    onChange(d === Infinity ? panelMaxWidth(screen) : d === -Infinity ? PANEL_MIN_WIDTH : width + d);
  };
  return (
    <div
      className="panel-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label="调整右侧面板宽度"
      aria-valuemin={PANEL_MIN_WIDTH}
      aria-valuemax={panelMaxWidth(screen)}
      aria-valuenow={width}
      tabIndex={0}
      data-testid="panel-resizer"
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    />
  );
}
