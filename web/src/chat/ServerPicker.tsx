// "Tools from" in the chat settings: one line ("7 servers, 52 tools") that opens a checklist of
// the configured servers (with their status) in a popover, so the settings bar keeps one row
// however many servers there are. The count is of the tools the model gets: the chosen,
// connected servers' listed tools after the session's tool filters and visibility rules.
// Closes on Escape (focus back on the button) or a press outside; in the narrow settings
// drawer it opens in place instead of over the conversation.
import { useQueries } from '@tanstack/react-query';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { HostConfig } from '../api/types.gen';
import { listQuery } from '../api/queries';
import { useServers } from '../servers/store';
import { serverNames, serversSummary, toggleServer } from './hostConfig';

export function ServerPicker({ config, onChange }: { config: HostConfig; onChange: (c: HostConfig) => void }) {
  const { list: servers } = useServers();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useDismiss(open, ref, setOpen);
  const chosen = serverNames(config, (servers ?? []).map((v) => v.config.name));
  const connected = new Set((servers ?? []).filter((v) => v.status.state === 'connected').map((v) => v.config.name));
  const tools = useQueries({ queries: chosen.map((name) => ({ ...listQuery('tools', name), enabled: connected.has(name) })) }).map((q) => q.data ?? null);
  const summary = serversSummary(
    config,
    chosen.map((name, i) => ({ name, tools: connected.has(name) ? tools[i] : null, connected: connected.has(name) })),
  );
  const configured = (servers ?? []).map((v) => v.config.name);
  const missing = chosen.filter((n) => !configured.includes(n));
  const toggle = (name: string, on: boolean) => onChange(toggleServer(config, name, on));

  return (
    <div className="chat-field chat-servers" ref={ref} data-testid="chat-servers">
      <span className="small muted" id="chat-servers-label">
        Tools from
      </span>
      <button
        type="button"
        className="chat-servers-button"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        aria-haspopup="true"
        aria-labelledby="chat-servers-label chat-servers-summary"
        title={chosen.length ? chosen.join(', ') : 'Choose the servers whose tools the model gets'}
        data-testid="chat-servers-open"
      >
        <span id="chat-servers-summary" data-testid="chat-servers-summary">
          {summary}
        </span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <fieldset className="chat-servers-pop" data-testid="chat-servers-list">
          <legend className="small muted">The model gets the tools of</legend>
          {configured.length === 0 && (
            <span className="small muted">
              no servers — <a href="#/servers">add one</a>
            </span>
          )}
          {(servers ?? []).map((v) => {
            const name = v.config.name;
            const st = v.status.state;
            return (
              <label key={name} className={`check chat-server st-${st}`} title={st === 'connected' ? 'connected' : `${st}: its tools are offered only while connected`}>
                <input type="checkbox" checked={chosen.includes(name)} onChange={(e) => toggle(name, e.target.checked)} data-testid={`chat-server-${name}`} />
                <span className={`status-dot status-${st}`} aria-hidden="true" />
                <span className="chat-server-name">{name}</span>
                {st !== 'connected' && <span className="muted small">({st})</span>}
              </label>
            );
          })}
          {missing.map((name) => (
            <label key={name} className="check chat-server" title="no longer configured">
              <input type="checkbox" checked onChange={() => toggle(name, false)} data-testid={`chat-server-${name}`} />
              <s>{name}</s>
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}

/** Closes the popover on Escape (focus back on its button) or a press outside `ref`. */
function useDismiss(open: boolean, ref: RefObject<HTMLDivElement | null>, setOpen: (open: boolean) => void): void {
  useEffect(() => {
    if (!open) return;
    const onEvent = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !ref.current?.contains(e.target as Node)) {
        setOpen(false);
        if (e instanceof KeyboardEvent) ref.current?.querySelector<HTMLButtonElement>('button')?.focus();
      }
    };
    window.addEventListener('mousedown', onEvent);
    window.addEventListener('keydown', onEvent);
    return () => {
      window.removeEventListener('mousedown', onEvent);
      window.removeEventListener('keydown', onEvent);
    };
  }, [open, ref, setOpen]);
}
