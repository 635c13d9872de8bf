// The cache line under a list's header: where the list came from, and "reload from server" (past the cache).
import { CacheHint } from './CacheHint';
import { requestBypass, useCacheInfo } from './cacheInfo';

export function ListCacheHint({ server, list, reload }: { server: string; list: string; reload: () => void }) {
  const info = useCacheInfo(server, list);
  return (
    <CacheHint
      info={info}
      testId={`cache-${list}`}
      onBypass={() => {
        requestBypass(server, list);
        reload();
      }}
    />
  );
}
