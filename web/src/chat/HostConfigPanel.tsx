// "Host config" under the chat settings: which tools of each chosen server the model sees,
// how elicitations and approvals are handled, the app host profile apps in this chat render
// under, and the config as a file (export: the server's canonical form; import: JSON or
// YAML, checked by the server). The short hash says which host a turn ran under.
import { useRef, useState } from 'react';
import { errorMessage } from '../api/client';
import type { AppHostProfile, DisplayMode, ElicitationMode, HostConfig } from '../api/types.gen';
import { useQuery } from '@tanstack/react-query';
import { listQuery } from '../api/queries';
import { useServers } from '../servers/store';
import { Button } from '../ui/Button';
import { chatApi } from './api';
import { exportFile, modelVisible, offers, serverNames, shortHash, toggleTool } from './hostConfig';
import { NumberField, TextField } from './fields';

const ELICITATION: [ElicitationMode, string][] = [
  ['ask', 'Ask me'],
  ['acceptDefaults', 'Accept with defaults'],
  ['decline', 'Decline'],
  ['cancel', 'Cancel'],
];
const MODES: DisplayMode[] = ['inline', 'fullscreen', 'pip'];

export function HostConfigPanel({ config, hash, onChange }: { config: HostConfig; hash: string; onChange: (c: HostConfig) => void }) {
  const set = (p: Partial<HostConfig>) => onChange({ ...config, ...p });
  const chosen = serverNames(config, (useServers().list ?? []).map((v) => v.config.name));
  return (
    <details className="chat-more" data-testid="chat-host-config">
      <summary className="small muted">
        Host config <span className="mono" data-testid="chat-host-hash" title={`SHA-256 of the canonical HostConfig: ${hash}`}>{shortHash(hash)}</span>
      </summary>
      <div className="chat-more-body">
        <section>
          <div className="field-label">Tools the model sees</div>
          {chosen.length === 0 && <div className="small muted">No servers chosen above.</div>}
          {chosen.map((s) => (
            <ToolFilter key={s} server={s} config={config} onChange={onChange} />
          ))}
        </section>
        <div className="chat-numbers">
          <label className="field">
            <span className="field-label">Elicitation during a turn</span>
            <select value={config.elicitation.mode} onChange={(e) => set({ elicitation: { mode: e.target.value as ElicitationMode } })} data-testid="chat-elicitation">
              {ELICITATION.map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <NumberField
            label="Approval timeout (s)"
            value={config.approval.timeoutSecs}
            step="1"
            min="1"
            placeholder="300"
            testId="chat-approval-timeout"
            onCommit={(raw) => {
              const v = parseInt(raw, 10);
              if (!Number.isNaN(v) && v !== config.approval.timeoutSecs) set({ approval: { ...config.approval, timeoutSecs: v } });
            }}
          />
        </div>
        <AppHostFields profile={config.appHost} onChange={(appHost) => set({ appHost })} />
        <FileActions config={config} hash={hash} onChange={onChange} />
      </div>
    </details>
  );
}

function ToolFilter({ server, config, onChange }: { server: string; config: HostConfig; onChange: (c: HostConfig) => void }) {
  // The shared cache: the event stream refetches it when the server reconnects.
  const q = useQuery(listQuery('tools', server));
  const tools = q.data ?? null;
  const error = q.error ? errorMessage(q.error) : null;
  const filter = config.servers[server];
  const listed = new Set((tools ?? []).map((t) => t.name));
  // Tools the server shows to apps only never reach a model, whatever the filter says.
  const mcpApps = config.client?.mcpApps ?? true;
  const appOnly = new Set((tools ?? []).filter((t) => !modelVisible(t, { mcpApps })).map((t) => t.name));
  // Tools the filter names that the server does not list (now) stay visible and editable.
  const names = [...listed, ...[...(filter?.allow ?? []), ...(filter?.deny ?? [])].filter((n) => !listed.has(n))];
  const toggle = (tool: string, on: boolean) => onChange({ ...config, servers: { ...config.servers, [server]: toggleTool(filter, tool, on) } });
  return (
    <fieldset className="chat-tool-filter" data-testid={`chat-tools-${server}`}>
      <legend className="small">
        <strong>{server}</strong>
        {filter?.allow && <span className="muted"> · only the allowed tools</span>}
      </legend>
      {error && <span className="small muted">Tools unknown while {server} is not connected ({error}).</span>}
      {!error && tools === null && <span className="small muted">Loading tools…</span>}
      {[...new Set(names)].map((t) =>
        appOnly.has(t) ? (
          <label key={t} className="check small muted" title="The server offers this tool to apps only (its visibility): models never see it.">
            <input type="checkbox" checked={false} disabled data-testid={`chat-tool-${server}-${t}`} /> {t} (app only)
          </label>
        ) : (
          <label key={t} className={`check small${listed.has(t) ? '' : ' muted'}`} title={listed.has(t) ? undefined : 'not listed by the server now'}>
            <input type="checkbox" checked={offers(filter, t)} onChange={(e) => toggle(t, e.target.checked)} data-testid={`chat-tool-${server}-${t}`} /> {t}
          </label>
        ),
      )}
    </fieldset>
  );
}

function AppHostFields({ profile, onChange }: { profile: AppHostProfile; onChange: (p: AppHostProfile) => void }) {
  const set = (p: Partial<AppHostProfile>) => onChange({ ...profile, ...p });
  const text = (v: string) => (v.trim() === '' ? null : v.trim());
  const toggleMode = (m: DisplayMode, on: boolean) => set({ displayModes: on ? MODES.filter((x) => x === m || profile.displayModes.includes(x)) : profile.displayModes.filter((x) => x !== m) });
  return (
    <fieldset className="chat-app-host" data-testid="chat-app-host">
      <legend className="field-label">Apps render as on</legend>
      <div className="chat-numbers">
        <label className="field">
          <span className="field-label">Device</span>
          <select value={profile.device} onChange={(e) => set({ device: e.target.value as AppHostProfile['device'] })} data-testid="chat-app-device">
            <option value="desktop">desktop</option>
            <option value="tablet">tablet</option>
            <option value="mobile">mobile</option>
          </select>
        </label>
        <label className="field">
          <span className="field-label">Theme</span>
          <select value={profile.theme} onChange={(e) => set({ theme: e.target.value as AppHostProfile['theme'] })} data-testid="chat-app-theme">
            <option value="system">mcplab's</option>
            <option value="light">light</option>
            <option value="dark">dark</option>
          </select>
        </label>
        <TextField label="Locale" value={profile.locale} placeholder="yours, e.g. de-DE" testId="chat-app-locale" onCommit={(v) => set({ locale: text(v) })} />
        <TextField label="Time zone" value={profile.timeZone} placeholder="yours, e.g. Asia/Tokyo" testId="chat-app-timezone" onCommit={(v) => set({ timeZone: text(v) })} />
        <label className="field">
          <span className="field-label">CSP</span>
          <select value={profile.cspMode} onChange={(e) => set({ cspMode: e.target.value as AppHostProfile['cspMode'] })} data-testid="chat-app-csp">
            <option value="declared">as declared</option>
            <option value="permissive">permissive</option>
          </select>
        </label>
      </div>
      <div className="chat-checks small">
        <span className="muted">Display modes:</span>
        {MODES.map((m) => (
          <label key={m} className="check">
            <input type="checkbox" checked={profile.displayModes.includes(m)} disabled={profile.displayModes.length === 1 && profile.displayModes[0] === m} onChange={(e) => toggleMode(m, e.target.checked)} data-testid={`chat-app-display-${m}`} /> {m}
          </label>
        ))}
        <label className="check" title="OpenAI widgets always get window.openai">
          <input type="checkbox" checked={profile.windowOpenai} onChange={(e) => set({ windowOpenai: e.target.checked })} data-testid="chat-app-window-openai" /> window.openai for MCP Apps
        </label>
      </div>
    </fieldset>
  );
}

function FileActions({ config, hash, onChange }: { config: HostConfig; hash: string; onChange: (c: HostConfig) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const download = () => {
    const f = exportFile(config, hash);
    const url = URL.createObjectURL(new Blob([f.text], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = f.name;
    a.click();
    URL.revokeObjectURL(url);
  };
  const load = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    try {
      const view = await chatApi.parseHostConfig(await file.text());
      onChange(view.hostConfig);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className="chat-host-file">
      <Button small onClick={download} data-testid="chat-host-export" title="Save this HostConfig as a file (use it with mcplab chat --host-config)">
        Export…
      </Button>
      <Button small onClick={() => input.current?.click()} data-testid="chat-host-import-button" title="Load a HostConfig file (JSON or YAML)">
        Import…
      </Button>
      <input ref={input} type="file" accept=".json,.yaml,.yml,application/json,text/yaml" hidden onChange={(e) => void load(e.target.files?.[0])} data-testid="chat-host-import" />
      {error && (
        <span className="inline-error small" role="alert" data-testid="chat-host-import-error">
          Could not import: {error}
        </span>
      )}
    </div>
  );
}
