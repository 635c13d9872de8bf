// A CSS media query as React state (layout decisions that CSS alone cannot make, such as
// docking the traffic panel or showing it as an overlay).
import { useSyncExternalStore } from 'react';

export const NAV_MENU_QUERY = '(max-width: 1180px)';
export const TRAFFIC_OVERLAY_QUERY = '(max-width: 1100px)';
/** Chat: the session list and the settings become drawers; compare columns become tabs. */
export const CHAT_DRAWERS_QUERY = '(max-width: 900px)';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (l) => {
      const m = window.matchMedia(query);
      m.addEventListener('change', l);
      return () => m.removeEventListener('change', l);
    },
    () => window.matchMedia(query).matches,
  );
}
