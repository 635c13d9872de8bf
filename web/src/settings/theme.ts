// Theme: `system` follows prefers-color-scheme; `light`/`dark` override it. Stored in prefs,
// mirrored in localStorage only so the first paint after a reload has the right colours.
import { useEffect } from 'react';
import { setPref, usePref } from './prefs';

export type ThemePref = 'system' | 'light' | 'dark';
const LOCAL_KEY = 'mcplab.theme';

export function initialTheme(): ThemePref {
  const t = localStorage.getItem(LOCAL_KEY);
  return t === 'light' || t === 'dark' ? t : 'system';
}

export function applyTheme(t: ThemePref): void {
  const root = document.documentElement;
  if (t === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', t);
  localStorage.setItem(LOCAL_KEY, t);
}

export function useTheme(): [ThemePref, (t: ThemePref) => void] {
  const theme = usePref<ThemePref>('theme', initialTheme());
  useEffect(() => applyTheme(theme), [theme]);
  return [theme, (t) => setPref('theme', t)];
}

export function nextTheme(t: ThemePref): ThemePref {
  return t === 'system' ? 'light' : t === 'light' ? 'dark' : 'system';
}
