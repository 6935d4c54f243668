/**
 * Whether the system asks for less motion (an accessibility setting), read once at start-up. Not followed live on
 * purpose: antd turns its animations off by wrapping the tree in a new provider, which would remount the whole app
 * (and lose what the creator is typing) the moment the setting changed; the next load picks it up.
 */
export const prefersReducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
