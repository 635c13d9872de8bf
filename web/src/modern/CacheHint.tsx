// The freshness of a 2026-07-28 list (ttlMs, cacheScope; "from cache, 3 s old") with a
// "bypass cache" action that lists again without the cache. Nothing for legacy lists, which
// carry no hints.
import { Button } from '../ui/Button';
import './modern.css';
import type { CacheInfo } from './api';

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

export function CacheHint({ info, onBypass, testId }: { info: CacheInfo | null; onBypass: () => void; testId: string }) {
  if (!info || (info.ttlMs === undefined && !info.cacheScope)) return null;
  const fresh = info.ttlMs ? `fresh for ${duration(info.ttlMs)}` : 'not cacheable';
  return (
    <div className="cache-hint small muted" data-testid={testId}>
      <span title="ttlMs and cacheScope of the server's result (2026-07-28 caching)">
        {fresh}
        {info.cacheScope ? ` · ${info.cacheScope}` : ''}
      </span>
      {info.cached && (
        <span className="badge" data-testid={`${testId}-cached`} title="mcplab served this list from its cache without asking the server">
          from cache, {duration(info.cached.ageMs)} old
        </span>
      )}
      <Button small variant="ghost" onClick={onBypass} data-testid={`${testId}-bypass`} title="List again, asking the server even if the cached list is fresh">
        bypass cache
      </Button>
    </div>
  );
}
