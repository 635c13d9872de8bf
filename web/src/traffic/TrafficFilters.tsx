// The traffic panel's filter bar: the one-call and one-exchange chips (set from a frame's
// detail), server, direction, method (offered from the methods seen so far) and text. It only
// edits the traffic filter in the store; matching frames is `frames.ts`'s `matches`.
import { useMemo } from 'react';
import { X } from 'lucide-react';
import { useServers } from '../servers/store';
import type { TrafficFilter } from './frames';
import { editTrafficFilter as set, index, useTraffic, useTrafficFilter } from './store';
import { tapShort, tapTitle, useTaps } from './taps';

export function TrafficFilters() {
  const filter = useTrafficFilter();
  const { version } = useTraffic();
  const { list } = useServers();
  const taps = useTaps();
  const methods = useMemo(() => {
    void version;
    return [...index.methods].sort();
  }, [version]);

  return (
    <div className="traffic-filters">
      {filter.exchange != null && (
        <span className="filter-chip" data-testid="traffic-filter-exchange">
          HTTP exchange #{filter.exchange}
          <button type="button" aria-label="Show all frames" onClick={() => set({ exchange: null })} data-testid="traffic-filter-exchange-clear">
            <X size={12} aria-hidden="true" />
          </button>
        </span>
      )}
      {filter.call && (
        <span className="filter-chip" data-testid="traffic-filter-call">
          frames of {filter.call.server} › {filter.call.label}
          <button type="button" aria-label="Show all frames" onClick={() => set({ call: null })} data-testid="traffic-filter-call-clear">
            <X size={12} aria-hidden="true" />
          </button>
        </span>
      )}
      <select value={filter.server} onChange={(e) => set({ server: e.target.value })} data-testid="traffic-filter-server" aria-label="Server">
        <option value="">All servers</option>
        {(list ?? []).map((v) => (
          <option key={v.config.name} value={v.config.name}>
            {v.config.name}
          </option>
        ))}
        {taps.map((t) => (
          <option key={t.key} value={t.key} title={tapTitle(t)}>
            {tapShort(t, t.key)}
          </option>
        ))}
      </select>
      <select value={filter.direction} onChange={(e) => set({ direction: e.target.value as TrafficFilter['direction'] })} data-testid="traffic-filter-direction" aria-label="Direction">
        <option value="">⇄ both</option>
        <option value="outbound">→ sent</option>
        <option value="inbound">← received</option>
      </select>
      <input list="traffic-methods" placeholder="method" value={filter.method} onChange={(e) => set({ method: e.target.value })} data-testid="traffic-filter-method" aria-label="Method" />
      <datalist id="traffic-methods">
        {methods.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <input type="search" placeholder="search text" value={filter.search} onChange={(e) => set({ search: e.target.value })} data-testid="traffic-search" aria-label="Search frames" />
    </div>
  );
}
