// Hash routing: `#/tools` etc. Enough for a handful of pages, and it works from any base path.
import { useSyncExternalStore } from 'react';

export const PAGES = ['servers', 'tools', 'resources', 'prompts', 'logs', 'settings'] as const;
export type Page = (typeof PAGES)[number];

function current(): Page {
  const h = window.location.hash.replace(/^#\/?/, '').split('/')[0];
  return (PAGES as readonly string[]).includes(h) ? (h as Page) : 'servers';
}

function subscribe(l: () => void) {
  window.addEventListener('hashchange', l);
  return () => window.removeEventListener('hashchange', l);
}

export function usePage(): Page {
  return useSyncExternalStore(subscribe, current);
}

export function navigate(page: Page): void {
  window.location.hash = `#/${page}`;
}
