// Apps in a chat render under the session's app host profile (shared by the single chat and
// the compare columns).
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { HostConfig } from '../api/types.gen';
import { HostConditionsContext } from '../apps/conditionsContext';
import { usePref } from '../settings/prefs';
import { initialTheme, type ThemePref } from '../settings/theme';
import { appConditions, inChat, isDefaultAppHost } from './hostConfig';

/** Which app runtimes the session's host implements: MCP Apps (`client.mcpApps`) and
 * `window.openai` widgets (`appHost.windowOpenai`). A host without MCP Apps renders no `ui://`
 * app; the tool card then shows the result as that host would (`linkForHost`). */
export const HostUiContext = createContext({ mcpApps: true, windowOpenai: false });

/** Apps in the chat render under the session's app host profile, unless a page around the
 * chat emulates a host of its own (the playground) or the profile is the default one (apps
 * then follow mcplab's own conditions, theme switch included). */
export function AppHostConditions({ profile, mcpApps = true, children }: { profile: HostConfig['appHost']; mcpApps?: boolean; children: ReactNode }) {
  const outer = useContext(HostConditionsContext);
  const themePref = usePref<ThemePref>('theme', initialTheme());
  const conditions = useMemo(() => {
    const dark = themePref === 'dark' || (themePref === 'system' && (window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false));
    const viewer = {
      theme: dark ? ('dark' as const) : ('light' as const),
      locale: navigator.language || 'en-US',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
    };
    return inChat(appConditions(profile, viewer));
  }, [profile, themePref]);
  const ui = useMemo(() => ({ mcpApps, windowOpenai: profile.windowOpenai }), [mcpApps, profile.windowOpenai]);
  const inner = <HostUiContext.Provider value={ui}>{children}</HostUiContext.Provider>;
  if (outer || isDefaultAppHost(profile)) return inner;
  return <HostConditionsContext.Provider value={conditions}>{inner}</HostConditionsContext.Provider>;
}
