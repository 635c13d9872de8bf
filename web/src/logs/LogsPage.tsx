// The Server logs page: every server's log notifications and stderr lines from the logs store,
// filtered by server, level and text in a virtualised list, and `logging/setLevel` for one
// server. Clearing empties the page's store, not the servers.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { api, errorMessage } from '../api/client';
import { useServers } from '../servers/store';
import { Button } from '../ui/Button';
import { EmptyState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { LEVELS, clearLogs, seedStderr, useLogs } from './store';

export function LogsPage() {
  const logs = useLogs();
  const { list } = useServers();
  const [server, setServer] = useState('');
  const [level, setLevel] = useState('');
  const [showStderr, setShowStderr] = useState(true);
  const [search, setSearch] = useState('');
  const [setLevelMsg, setSetLevelMsg] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (list) seedStderr(list);
  }, [list]);

  const minRank = level ? LEVELS.indexOf(level as (typeof LEVELS)[number]) : -1;
  const rows = useMemo(
    () =>
      logs.filter((l) => {
        if (server && l.server !== server) return false;
        if (l.source === 'stderr') return showStderr && !level;
        if (minRank >= 0 && LEVELS.indexOf(l.level as (typeof LEVELS)[number]) < minRank) return false;
        return true;
      }).filter((l) => !search || l.text.toLowerCase().includes(search.toLowerCase())),
    [logs, server, level, showStderr, search, minRank],
  );

  const virt = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => 20, overscan: 20 });

  const sendLevel = async (lvl: string) => {
    if (!server) return;
    setSetLevelMsg(null);
    try {
      const out = await api.setLogLevel(server, lvl);
      setSetLevelMsg(out.error ? `Server refused: ${out.error.message}` : `Asked ${server} to log at ${lvl} and above`);
    } catch (e) {
      setSetLevelMsg(errorMessage(e));
    }
  };

  return (
    <div className="page logs-page" data-testid="logs-page">
      <div className="page-head">
        <h1>Server logs</h1>
        <div className="toolbar">
          <select value={server} onChange={(e) => setServer(e.target.value)} data-testid="logs-filter-server" aria-label="Server">
            <option value="">All servers</option>
            {(list ?? []).map((v) => (
              <option key={v.config.name} value={v.config.name}>
                {v.config.name}
              </option>
            ))}
          </select>
          <select value={level} onChange={(e) => setLevel(e.target.value)} data-testid="logs-filter-level" aria-label="Minimum level">
            <option value="">All levels</option>
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {l}+
              </option>
            ))}
          </select>
          <label className="check">
            <input type="checkbox" checked={showStderr} onChange={(e) => setShowStderr(e.target.checked)} data-testid="logs-show-stderr" />
            stderr
          </label>
          <input type="search" placeholder="search" value={search} onChange={(e) => setSearch(e.target.value)} data-testid="logs-search" aria-label="Search logs" />
          {server && (
            <select value="" onChange={(e) => e.target.value && void sendLevel(e.target.value)} data-testid="logs-set-level" aria-label="Set the server's log level">
              <option value="">Set server level…</option>
              {LEVELS.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          )}
          <Button small variant="ghost" onClick={clearLogs} data-testid="logs-clear">
            Clear
          </Button>
        </div>
      </div>
      {setLevelMsg && <div className="notice small">{setLevelMsg}</div>}
      {!list ? (
        <Loading />
      ) : rows.length === 0 ? (
        <EmptyState page="logs" title={logs.length ? 'No line matches the filters' : 'No log lines yet'} testId="logs-empty">
          {logs.length ? null : 'Logging notifications and stderr lines from your servers show up here.'}
        </EmptyState>
      ) : (
        <div className="log-list" ref={scrollRef} data-testid="log-list" tabIndex={0}>
          <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
            {virt.getVirtualItems().map((vi) => {
              const l = rows[vi.index];
              return (
                <div key={l.n} className={`log-row lvl-${l.level}`} style={{ transform: `translateY(${vi.start}px)` }} data-testid="log-row" data-index={vi.index} ref={virt.measureElement}>
                  <span className="c-time">{l.ts ? new Date(l.ts).toLocaleTimeString([], { hour12: false }) : '—'}</span>
                  <span className="c-server">{l.server}</span>
                  <span className={`lvl lvl-${l.level}`}>{l.level}</span>
                  {l.logger && <span className="muted">[{l.logger}]</span>}
                  <span className="log-text">{l.text}</span>
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
