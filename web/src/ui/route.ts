// Hash routing: `#/tools` etc. Enough for a handful of pages, and it works from any base path.
// A page may take one sub-path segment (`#/chat/<sessionId>`, `#/oauth/<runId>`,
// `#/servers/<name>`), read with `useRouteArg`.
import { useSyncExternalStore } from 'react';

export const PAGES = ['servers', 'tools', 'resources', 'prompts', 'tasks', 'skills', 'playground', 'chat', 'logs', 'oauth', 'settings'] as const;
export type Page = (typeof PAGES)[number];

function parts(): string[] {
  return window.location.hash.replace(/^#\/?/, '').split('/');
}

function current(): Page {
  const h = parts()[0];
  return (PAGES as readonly string[]).includes(h) ? (h as Page) : 'servers';
}

function currentArg(): string | null {
  const a = parts()[1];
  if (!a) return null;
  try {
    return decodeURIComponent(a);
  } catch {
    return a;
  }
}

function subscribe(l: () => void) {
  window.addEventListener('hashchange', l);
  return () => window.removeEventListener('hashchange', l);
}

export function usePage(): Page {
  return useSyncExternalStore(subscribe, current);
}

/** The segment after the page (`#/chat/<arg>`), decoded; null when there is none. */
export function useRouteArg(): string | null {
  return useSyncExternalStore(subscribe, currentArg);
}

export function navigate(page: Page, arg?: string | null): void {
  window.location.hash = arg ? `#/${page}/${encodeURIComponent(arg)}` : `#/${page}`;
}
