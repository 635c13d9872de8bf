// Add or edit one server: stdio (command, args, env, cwd) or HTTP/SSE (URL, headers, bearer
// token), with a per-request timeout.
import { useState } from 'react';
import { api, errorMessage } from '../api/client';
import type { ServerConfig } from '../api/types.gen';
import { Button } from '../ui/Button';
import { KeyValueEditor } from '../ui/KeyValueEditor';
import { Modal } from '../ui/Modal';
import { configToForm, emptyForm, formToConfig, type ConfigForm } from './configForm';
import { selectServer, upsertServer } from './store';

export function ServerForm({ existing, onClose }: { existing?: ServerConfig; onClose: () => void }) {
  const [f, setF] = useState<ConfigForm>(() => (existing ? configToForm(existing) : emptyForm));
  const [errors, setErrors] = useState<Partial<Record<keyof ConfigForm, string>>>({});
  const [busy, setBusy] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const set = (p: Partial<ConfigForm>) => setF((x) => ({ ...x, ...p }));

  const save = async () => {
    const r = formToConfig(f);
    if ('errors' in r) {
      setErrors(r.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    setSubmitError(null);
    try {
      const view = existing ? await api.updateServer(existing.name, r.config) : await api.addServer(r.config);
      upsertServer(view, existing?.name);
      selectServer(view.config.name);
      onClose();
    } catch (e) {
      setSubmitError(errorMessage(e));
      setBusy(false);
    }
  };

  const err = (k: keyof ConfigForm) =>
    errors[k] ? (
      <span className="field-error" data-testid={`server-form-error-${k}`}>
        {errors[k]}
      </span>
    ) : null;

  return (
    <Modal
      title={existing ? `Edit ${existing.name}` : 'Add a server'}
      testId="server-form"
      onCancel={onClose}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" onClick={save} busy={busy} data-testid="server-form-save">
            {existing ? 'Save' : 'Add server'}
          </Button>
        </>
      }
    >
      <form
        className="fields"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label className="field">
          <span className="field-label">Name</span>
          <input value={f.name} onChange={(e) => set({ name: e.target.value })} autoFocus data-testid="server-form-name" />
          {err('name')}
        </label>
        <div className="field">
          <span className="field-label">Transport</span>
          <div className="segmented" role="radiogroup" aria-label="Transport">
            {(['stdio', 'http', 'sse'] as const).map((t) => (
              <label key={t} className={f.type === t ? 'on' : ''} data-testid={`server-form-type-${t}`}>
                <input type="radio" name="transport" checked={f.type === t} onChange={() => set({ type: t })} />
                {t === 'stdio' ? 'stdio' : t === 'http' ? 'Streamable HTTP' : 'SSE (legacy)'}
              </label>
            ))}
          </div>
        </div>
        {f.type === 'stdio' ? (
          <>
            <label className="field">
              <span className="field-label">Command</span>
              <input value={f.command} onChange={(e) => set({ command: e.target.value })} placeholder="npx" className="mono" data-testid="server-form-command" />
              {err('command')}
            </label>
            <label className="field">
              <span className="field-label">Arguments <span className="muted small">(one per line)</span></span>
              <textarea rows={3} value={f.args} onChange={(e) => set({ args: e.target.value })} placeholder={'-y\n@modelcontextprotocol/server-everything'} className="mono" data-testid="server-form-args" />
            </label>
            <div className="field">
              <span className="field-label">Environment</span>
              <KeyValueEditor pairs={f.env} onChange={(env) => set({ env })} testId="server-form-env" />
            </div>
            <label className="field">
              <span className="field-label">Working directory <span className="muted small">(optional)</span></span>
              <input value={f.cwd} onChange={(e) => set({ cwd: e.target.value })} className="mono" data-testid="server-form-cwd" />
            </label>
          </>
        ) : (
          <>
            <label className="field">
              <span className="field-label">URL</span>
              <input value={f.url} onChange={(e) => set({ url: e.target.value })} placeholder={f.type === 'http' ? 'http://127.0.0.1:3001/mcp' : 'http://127.0.0.1:3001/sse'} className="mono" data-testid="server-form-url" />
              {err('url')}
            </label>
            <label className="field">
              <span className="field-label">Bearer token <span className="muted small">(sent as Authorization: Bearer …)</span></span>
              <input type="password" value={f.bearer} onChange={(e) => set({ bearer: e.target.value })} autoComplete="off" data-testid="server-form-bearer" />
            </label>
            <div className="field">
              <span className="field-label">Headers</span>
              <KeyValueEditor pairs={f.headers} onChange={(headers) => set({ headers })} keyPlaceholder="Header" testId="server-form-headers" />
            </div>
          </>
        )}
        <label className="field">
          <span className="field-label">Request timeout (ms) <span className="muted small">(optional)</span></span>
          <input value={f.timeoutMs} onChange={(e) => set({ timeoutMs: e.target.value })} inputMode="numeric" placeholder="default" data-testid="server-form-timeout" />
          {err('timeoutMs')}
        </label>
        <button type="submit" hidden />
      </form>
      {submitError && (
        <div className="inline-error" role="alert" data-testid="server-form-submit-error">
          {submitError}
        </div>
      )}
    </Modal>
  );
}
