// One short line above a 2026-07-28 list saying where it came from ("Cached 3 s ago", "Live ·
// kept 1 min", "Live · not cached") and "reload from server", which lists again past mcplab's cache. The
// server's hints (ttlMs, cacheScope) and the cache age, in full, are in the line's tooltip.
// Nothing for legacy lists, which carry no hints.
import { Button } from '../ui/Button';
import './modern.css';
import type { CacheInfo } from './api';

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

/** The short words shown on the line. */
export function cacheSummary(info: CacheInfo): string {
  if (info.cached) return `Cached ${info.cached.ageMs < 1000 ? 'just now' : `${duration(info.cached.ageMs)} ago`}`;
  return info.ttlMs ? `Live · kept ${duration(info.ttlMs)}` : 'Live · not cached';
}

/** The details for the tooltip: the server's hints in its own terms, and what mcplab did. */
export function cacheDetails(info: CacheInfo): string {
  const fresh = info.ttlMs ? `fresh for ${duration(info.ttlMs)}` : 'not cacheable';
  const scope = info.cacheScope ? ` · ${info.cacheScope}` : '';
  const scopeWords =
    info.cacheScope === 'public' ? ' (the same for every user)' : info.cacheScope === 'private' ? ' (for this user only)' : '';
  const served = info.cached
    ? `mcplab served this list from its cache, ${duration(info.cached.ageMs)} old.`
    : 'mcplab asked the server for this list.';
  return `Server hints (ttlMs, cacheScope): ${fresh}${scope}${scopeWords}. ${served}`;
}

export function CacheHint({ info, onBypass, testId }: { info: CacheInfo | null; onBypass: () => void; testId: string }) {
  if (!info || (info.ttlMs === undefined && !info.cacheScope)) return null;
  const details = cacheDetails(info);
  return (
    <div className="cache-hint small muted" data-testid={testId}>
      <span className="cache-hint-text" title={details} data-testid={`${testId}-text`}>
        {info.cached ? <span data-testid={`${testId}-cached`}>{cacheSummary(info)}</span> : cacheSummary(info)}
      </span>
      <Button small variant="ghost" onClick={onBypass} data-testid={`${testId}-bypass`} title="List again, asking the server even if the cached list is fresh">
        reload from server
      </Button>
    </div>
  );
}
