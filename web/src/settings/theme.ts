// Theme: `system` follows prefers-color-scheme; `light`/`dark` override it. Stored in prefs,
// mirrored in localStorage only so the first paint after a reload has the right colours.
// `<html data-theme>` always holds the theme in effect (system resolved), so the stylesheet
// defines the dark palette once.
import { useEffect } from 'react';
import { setPref, usePref } from './prefs';

export type ThemePref = 'system' | 'light' | 'dark';
const LOCAL_KEY = 'mcplab.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

export function initialTheme(): ThemePref {
  const t = localStorage.getItem(LOCAL_KEY);
  return t === 'light' || t === 'dark' ? t : 'system';
}

export function resolveThemePref(t: ThemePref): 'light' | 'dark' {
  if (t !== 'system') return t;
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

export function applyTheme(t: ThemePref): void {
  const root = document.documentElement;
  root.setAttribute('data-theme', resolveThemePref(t));
  root.setAttribute('data-theme-pref', t);
  localStorage.setItem(LOCAL_KEY, t);
}

export function useTheme(): [ThemePref, (t: ThemePref) => void] {
  const theme = usePref<ThemePref>('theme', initialTheme());
  useEffect(() => {
    applyTheme(theme);
    if (theme !== 'system' || typeof window.matchMedia !== 'function') return;
    const m = window.matchMedia(DARK_QUERY);
    const follow = () => applyTheme('system');
    m.addEventListener('change', follow);
    return () => m.removeEventListener('change', follow);
  }, [theme]);
  return [theme, (t) => setPref('theme', t)];
}

export function nextTheme(t: ThemePref): ThemePref {
  return t === 'system' ? 'light' : t === 'light' ? 'dark' : 'system';
}
