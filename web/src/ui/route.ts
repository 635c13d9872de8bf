// Hash routing: `#/tools` etc. Enough for a handful of pages, and it works from any base path.
// A page may take sub-path segments, each URI-encoded: `#/chat/<sessionId>`,
// `#/oauth/<runId>`, `#/servers/<name>`, and the inspector's deep links
// `#/tools/<server>/<tool>`, `#/resources/<server>/<uri>`, `#/prompts/<server>/<name>`.
// A deep link only selects and shows; nothing is ever called because of a URL.
import { useSyncExternalStore } from 'react';

export const PAGES = ['servers', 'tools', 'resources', 'prompts', 'tasks', 'skills', 'playground', 'apps', 'chat', 'evals', 'check', 'logs', 'oauth', 'settings'] as const;
export type Page = (typeof PAGES)[number];

function parts(): string[] {
  return window.location.hash.replace(/^#\/?/, '').split('/');
}

function current(): Page {
  const h = parts()[0];
  return (PAGES as readonly string[]).includes(h) ? (h as Page) : 'servers';
}

function decode(a: string): string {
  try {
    return decodeURIComponent(a);
  } catch {
    return a;
  }
}

function currentArg(): string | null {
  const a = parts()[1];
  return a ? decode(a) : null;
}

let cachedHash = '';
let cachedArgs: string[] = [];
/** Every segment after the page, decoded (stable identity while the hash is unchanged); read
 * outside rendering (a callback's current route), `useRouteArgs` inside it. */
export function currentArgs(): string[] {
  const h = window.location.hash;
  if (h !== cachedHash) {
    cachedHash = h;
    cachedArgs = parts().slice(1).filter(Boolean).map(decode);
  }
  return cachedArgs;
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

/**
 * The segments after the page, decoded. A resource URI typed by hand (`#/resources/demo/demo://x`)
 * spans several segments: `restOf(args, 1)` joins them back.
 */
export function useRouteArgs(): string[] {
  return useSyncExternalStore(subscribe, currentArgs);
}

export function restOf(args: string[], from: number): string | null {
  return args.length > from ? args.slice(from).join('/') : null;
}

export function routeHash(page: Page, ...args: (string | null | undefined)[]): string {
  const segs = args.filter((a): a is string => !!a).map(encodeURIComponent);
  return `#/${[page, ...segs].join('/')}`;
}

export function navigate(page: Page, ...args: (string | null | undefined)[]): void {
  window.location.hash = routeHash(page, ...args);
}

/** Changes the URL without a new history entry (restoring a remembered selection). */
export function replaceRoute(page: Page, ...args: (string | null | undefined)[]): void {
  const hash = routeHash(page, ...args);
  if (window.location.hash === hash) return;
  history.replaceState(history.state, '', hash);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}
