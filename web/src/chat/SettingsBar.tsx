// The session's settings: model (usable ones, grouped by provider; unusable providers listed
// disabled with the reason), the servers whose tools the model gets (with their status), and
// under "more" the system prompt, temperature, max tokens and step limit. Every change is
// PATCHed at once (text fields on blur).
import { useState } from 'react';
import type { ChatSettings, ProviderView } from '../api/types.gen';
import { useServers } from '../servers/store';
import { setPref } from '../settings/prefs';

export function SettingsBar({ settings, providers, onChange, error }: { settings: ChatSettings; providers: ProviderView[]; onChange: (s: ChatSettings) => void; error: string | null }) {
  const { list: servers } = useServers();
  const set = (p: Partial<ChatSettings>) => onChange({ ...settings, ...p });
  const usable = providers.filter((p) => p.usable);
  const unusable = providers.filter((p) => !p.usable);
  const known = usable.some((p) => p.models.some((m) => `${p.id}::${m}` === settings.model));
  const configured = (servers ?? []).map((v) => v.config.name);
  const missing = settings.servers.filter((n) => !configured.includes(n));

  const toggle = (name: string, on: boolean) => set({ servers: on ? [...settings.servers.filter((n) => n !== name), name] : settings.servers.filter((n) => n !== name) });

  return (
    <div className="chat-settings">
      <div className="chat-settings-row">
        <label className="chat-field">
          <span className="small muted">Model</span>
          <select
            value={settings.model}
            onChange={(e) => {
              set({ model: e.target.value });
              setPref('chatModel', e.target.value);
            }}
            data-testid="chat-model"
            aria-label="Model"
          >
            {!known && <option value={settings.model}>{settings.model ? `${settings.model} (not available)` : 'choose a model…'}</option>}
            {usable.map((p) => (
              <optgroup key={p.id} label={p.custom ? `${p.displayName} (${p.id})` : p.displayName}>
                {p.models.length === 0 && <option disabled>(no models listed: add some in Settings)</option>}
                {p.models.map((m) => (
                  <option key={m} value={`${p.id}::${m}`}>
                    {m}
                  </option>
                ))}
              </optgroup>
            ))}
            {unusable.length > 0 && (
              <optgroup label="Not usable">
                {unusable.map((p) => (
                  <option key={p.id} disabled title={p.reason ?? ''}>
                    {p.displayName}: {p.reason ?? 'not configured'}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </label>
        <fieldset className="chat-servers" data-testid="chat-servers">
          <legend className="small muted">Tools from</legend>
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
                <input type="checkbox" checked={settings.servers.includes(name)} onChange={(e) => toggle(name, e.target.checked)} data-testid={`chat-server-${name}`} />
                <span className={`status-dot status-${st}`} aria-hidden="true" />
                {name}
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
        <label className="chat-approval small" title="Each tool call waits for you to allow (arguments editable) or deny it">
          <input type="checkbox" checked={settings.requireApproval ?? false} onChange={(e) => set({ requireApproval: e.target.checked })} data-testid="chat-require-approval" />{' '}
          Ask before each tool call
        </label>
      </div>
      <details className="chat-more">
        <summary className="small muted">System prompt &amp; limits</summary>
        <MoreSettings settings={settings} set={set} />
      </details>
      {error && (
        <div className="inline-error small" role="alert">
          Could not save settings: {error}
        </div>
      )}
    </div>
  );
}

function MoreSettings({ settings, set }: { settings: ChatSettings; set: (p: Partial<ChatSettings>) => void }) {
  const [prompt, setPrompt] = useState(settings.systemPrompt ?? '');
  const num = (key: 'temperature' | 'maxTokens' | 'stepLimit', raw: string, int: boolean) => {
    const t = raw.trim();
    const v = int ? parseInt(t, 10) : parseFloat(t);
    const next = t === '' || Number.isNaN(v) ? undefined : v;
    if (next !== settings[key]) set({ [key]: next });
  };
  return (
    <div className="chat-more-body">
      <label className="field">
        <span className="field-label">System prompt</span>
        <textarea
          rows={3}
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          onBlur={() => prompt !== (settings.systemPrompt ?? '') && set({ systemPrompt: prompt || undefined })}
          placeholder="(none; server instructions are added as system messages)"
          data-testid="chat-system-prompt"
        />
      </label>
      <div className="chat-numbers">
        <NumberField label="Temperature" value={settings.temperature} step="0.1" min="0" max="2" placeholder="provider default" onCommit={(v) => num('temperature', v, false)} testId="chat-temperature" />
        <NumberField label="Max tokens" value={settings.maxTokens} step="1" min="1" placeholder="provider default" onCommit={(v) => num('maxTokens', v, true)} testId="chat-max-tokens" />
        <NumberField label="Step limit" value={settings.stepLimit} step="1" min="1" placeholder="10" onCommit={(v) => num('stepLimit', v, true)} testId="chat-step-limit" />
      </div>
    </div>
  );
}

function NumberField({ label, value, onCommit, testId, ...rest }: { label: string; value: number | undefined; onCommit: (raw: string) => void; testId: string; step: string; min: string; max?: string; placeholder: string }) {
  const [draft, setDraft] = useState(value === undefined ? '' : String(value));
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        type="number"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => onCommit(draft)}
        onKeyDown={(e) => e.key === 'Enter' && onCommit(draft)}
        data-testid={testId}
        {...rest}
      />
    </label>
  );
}
