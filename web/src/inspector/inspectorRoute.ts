// The inspector pages' place in the URL: `#/<page>/<server>/<item>`. The URL is the source
// of truth for what is shown; `#/<page>` alone restores the page's remembered selection for
// the selected server, `#/<page>/<server>` shows the list with nothing selected. A URL only
// selects: whether a selection may also read (a resource) is told by `userIntended`, set
// when a person clicked inside mcplab, never by a typed or pasted URL. A URL naming a server
// that was removed meanwhile moves to the server the pages fall back to.
import { useEffect, useRef } from 'react';
import { selectServer, useSelectedServer, useServers, wasRemoved } from '../servers/store';
import { getPref } from '../settings/prefs';
import { navigate, replaceRoute, restOf, routeHash, usePage, useRouteArgs } from '../ui/route';
import { rememberSelection, rememberedSelection, type InspectorPage } from './selection';

// The item a person opened inside mcplab; forgotten as soon as the URL shows anything else,
// so going back to it later (history, reload, a pasted URL) does not count as a request.
let intent: { hash: string } | null = null;
let watching = false;

/** Shows `item` because a person asked for it inside mcplab (a click, a result's link). */
export function openInInspector(page: InspectorPage, server: string, item: string | null): void {
  if (!watching) {
    watching = true;
    window.addEventListener('hashchange', () => {
      if (intent && window.location.hash !== intent.hash) intent = null;
    });
  }
  intent = item ? { hash: routeHash(page, server, item) } : null;
  navigate(page, server, item);
}

/** True while the URL shows the item a person opened inside mcplab. Pure. */
export function userIntended(page: InspectorPage, server: string, item: string): boolean {
  return intent?.hash === routeHash(page, server, item) && window.location.hash === intent.hash;
}

export interface InspectorRoute {
  server: string | null;
  item: string | null;
  select: (item: string | null) => void;
}

/**
 * The URL's server and item for `page`. The URL can already show another page while this one
 * is still mounted (a link's hash is set before its `hashchange` event runs, and a re-render can
 * fall in between): then the last arguments of this page are kept and nothing is written, so a
 * page on its way out never moves the URL back to itself nor remembers another page's item.
 */
export function useInspectorRoute(page: InspectorPage): InspectorRoute {
  const live = usePage() === page;
  const urlArgs = useRouteArgs();
  const lastArgs = useRef(urlArgs);
  if (live) lastArgs.current = urlArgs;
  const args = live ? urlArgs : lastArgs.current;
  const selected = useSelectedServer();
  const { list } = useServers();
  const urlServer = args[0] ?? null;
  const item = page === 'resources' ? restOf(args, 1) : (args[1] ?? null);
  const server = urlServer ?? selected;
  const known = !!urlServer && !!list?.some((v) => v.config.name === urlServer);

  useEffect(() => {
    if (live && known && urlServer && getPref<string | null>('selectedServer', null) !== urlServer) selectServer(urlServer);
  }, [live, known, urlServer]);

  useEffect(() => {
    if (live && !urlServer && selected) replaceRoute(page, selected, rememberedSelection(page, selected));
  }, [live, page, urlServer, selected]);

  useEffect(() => {
    // The URL's server was removed (on this page or another): show the one the pages fall back to.
    if (live && urlServer && !known && list && wasRemoved(urlServer) && selected !== urlServer) {
      replaceRoute(page, selected, selected ? rememberedSelection(page, selected) : null);
    }
  }, [live, page, urlServer, known, list, selected]);

  useEffect(() => {
    if (live && urlServer && known) rememberSelection(page, urlServer, item);
  }, [live, page, urlServer, known, item]);

  return { server, item, select: (next) => server && openInInspector(page, server, next) };
}
