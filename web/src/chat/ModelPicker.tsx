// The model select of the chat's settings, also the Evals page's "Draft cases with a model":
// the usable providers' models grouped by provider; the unusable providers listed disabled
// with the reason (no key, no endpoint) and what to do.
import type { ProviderView } from '../api/types.gen';

/** `testId` names the select (the chat's is `chat-model`). */
export function ModelPicker({ model, providers, onPick, testId = 'chat-model' }: { model: string; providers: ProviderView[]; onPick: (m: string) => void; testId?: string }) {
  const usable = providers.filter((p) => p.usable);
  const unusable = providers.filter((p) => !p.usable);
  const known = usable.some((p) => p.models.some((m) => `${p.id}::${m}` === model));
  return (
    <label className="chat-field">
      <span className="small muted">Model</span>
      <select
        value={model}
        onChange={(e) => onPick(e.target.value)}
        data-testid={testId}
        aria-label="Model"
      >
        {!known && <option value={model}>{model ? `${model} (not available)` : 'choose a model…'}</option>}
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
  );
}
