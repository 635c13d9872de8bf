// The playground's host picker: render the app as Claude, ChatGPT, VS Code, Cursor, goose,
// mcplab or one's own profile (`/api/hosts`). Choosing one sets the emulation from its app host
// section (see `hostEmulation.ts`); the emulation controls below stay editable, and the
// picker then says the emulation is custom. Under it, what the last choice changed, in words.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { request } from '../api/client';
import type { HostProfile } from '../api/types.gen';
import type { Emulation } from './devices';
import { emulatesProfile, emulationChanges, emulationForProfile } from './hostEmulation';

export function HostPicker({ value, onChange }: { value: Emulation; onChange: (e: Emulation) => void }) {
  const list = useQuery({ queryKey: ['hosts'], queryFn: () => request<HostProfile[]>('GET', '/api/hosts') });
  const profiles = list.data ?? [];
  const named = profiles.find((p) => p.name === value.host);
  const current = named && emulatesProfile(named, value) ? named : null;
  const [changes, setChanges] = useState<{ host: string; list: string[] } | null>(null);
  return (
    <>
      <label className="emu-wide small pg-host" data-testid="pg-host">
        <span>Render as host</span>
        <select
          value={current?.name ?? ''}
          data-testid="pg-host-select"
          onChange={(e) => {
            const p = profiles.find((x) => x.name === e.target.value);
            if (!p) return;
            const next = emulationForProfile(p, value);
            setChanges({ host: p.name, list: emulationChanges(value, next) });
            onChange(next);
          }}
        >
          <option value="">{named ? `custom (from ${named.title || named.name})` : 'custom'}</option>
          {profiles.map((p) => (
            <option key={p.name} value={p.name}>
              {p.title || p.name}
              {p.builtin ? '' : ' (yours)'}
            </option>
          ))}
        </select>
        {list.error && (
          <span className="inline-error" role="alert">
            Could not load host profiles: {String(list.error)}
          </span>
        )}
      </label>
      {changes && current?.name === changes.host && (
        <p className="small muted pg-host-changes" data-testid="pg-host-changes">
          {changes.list.length ? `${current.title || current.name} set: ${changes.list.join('; ')}.` : 'Nothing changed: the emulation already was this host.'}
        </p>
      )}
    </>
  );
}
