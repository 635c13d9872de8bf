// The session's HostConfig, edited in place: model (usable ones, grouped by provider; unusable
// providers listed disabled with the reason), the servers whose tools the model gets (one line
// opening a checklist, ServerPicker), approval; under "System prompt & limits" the prompt, temperature, max
// tokens and step limit; under "Host config" the per-server tool filters, the elicitation
// policy, the app host profile and the file export/import (HostConfigPanel). Every change is
// PATCHed at once (text fields on blur); the server checks it. `actions` (the Compare…
// control) sit at the end of the first row, inside the bar, never over the conversation.
import type { ReactNode } from 'react';
import type { HostConfig, ProviderView } from '../api/types.gen';
import { setPref } from '../settings/prefs';
import { NumberField, useDraft } from './fields';
import { HostConfigPanel } from './HostConfigPanel';
import { HostProfilePicker } from './HostProfilePicker';
import { ModelPicker } from './ModelPicker';
import { ServerPicker } from './ServerPicker';

interface Props {
  config: HostConfig;
  hash: string;
  providers: ProviderView[];
  onChange: (c: HostConfig) => void;
  error: string | null;
  actions?: ReactNode;
}

export function SettingsBar({ config, hash, providers, onChange, error, actions }: Props) {
  const set = (p: Partial<HostConfig>) => onChange({ ...config, ...p });

  return (
    <div className="chat-settings">
      <div className="chat-settings-row">
        <ModelPicker
          model={config.model}
          providers={providers}
          onPick={(model) => {
            set({ model });
            setPref('chatModel', model);
          }}
        />
        <ServerPicker config={config} onChange={onChange} />
        <label className="chat-approval small" title="Each tool call waits for you to allow (arguments editable) or deny it">
          <input
            type="checkbox"
            checked={config.approval.mode === 'always'}
            onChange={(e) => set({ approval: { ...config.approval, mode: e.target.checked ? 'always' : 'never' } })}
            data-testid="chat-require-approval"
          />{' '}
          Ask before each tool call
        </label>
        {actions && <div className="chat-settings-actions">{actions}</div>}
      </div>
      <details className="chat-more">
        <summary className="small muted">System prompt &amp; limits</summary>
        <MoreSettings config={config} set={set} />
      </details>
      <HostProfilePicker config={config} onChange={onChange} />
      <HostConfigPanel config={config} hash={hash} onChange={onChange} />
      {error && (
        <div className="inline-error small" role="alert" data-testid="chat-settings-error">
          Could not save settings: {error}
        </div>
      )}
    </div>
  );
}

function MoreSettings({ config, set }: { config: HostConfig; set: (p: Partial<HostConfig>) => void }) {
  const [prompt, setPrompt] = useDraft(config.systemPrompt);
  const num = (key: 'temperature' | 'maxTokens', raw: string, int: boolean) => {
    const t = raw.trim();
    const v = int ? parseInt(t, 10) : parseFloat(t);
    const next = t === '' || Number.isNaN(v) ? null : v;
    if (next !== config[key]) set({ [key]: next });
  };
  const steps = (raw: string) => {
    const v = parseInt(raw.trim(), 10);
    if (!Number.isNaN(v) && v !== config.stepLimit) set({ stepLimit: v });
  };
  return (
    <div className="chat-more-body">
      <label className="field">
        <span className="field-label">System prompt</span>
        <textarea
          rows={3}
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          onBlur={() => prompt !== config.systemPrompt && set({ systemPrompt: prompt })}
          placeholder="(empty: server instructions are the only system messages)"
          data-testid="chat-system-prompt"
        />
      </label>
      <div className="chat-numbers">
        <NumberField label="Temperature" value={config.temperature} step="0.1" min="0" max="2" placeholder="provider default" onCommit={(v) => num('temperature', v, false)} testId="chat-temperature" />
        <NumberField label="Max tokens" value={config.maxTokens} step="1" min="1" placeholder="provider default" onCommit={(v) => num('maxTokens', v, true)} testId="chat-max-tokens" />
        <NumberField label="Step limit" value={config.stepLimit} step="1" min="1" placeholder="10" onCommit={steps} testId="chat-step-limit" />
      </div>
    </div>
  );
}
