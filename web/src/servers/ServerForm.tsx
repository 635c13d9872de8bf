// Add or edit one server: stdio (command, args, env, cwd) or HTTP/SSE (URL, headers, bearer
// token, OAuth settings), with a per-request timeout. A new server connects once added unless
// the user unticks "Connect now" (one with OAuth settings waits for the user to sign in).
// `template` (a server's Clone) opens the Add form filled with that config, under a new name.
import { useState, type ReactNode } from 'react';
import type { ServerConfig } from '../api/types.gen';
import { OAuthFields, type OAuthField } from '../oauth/OAuthFields';
import type { OAuthValues } from '../oauth/form';
import { Button } from '../ui/Button';
import { KeyValueEditor } from '../ui/KeyValueEditor';
import { Modal } from '../ui/Modal';
import { hasOAuthSettings, oauthPatch, oauthValues, type ConfigForm } from './configForm';
import { PROTOCOL_CHOICES } from '../modern/api';
import { useServerForm } from './useServerForm';
import { CommandField } from './CommandField';
import '../oauth/oauth.css';

export function ServerForm({ existing, template, onClose }: { existing?: ServerConfig; template?: ServerConfig; onClose: () => void }) {
  const { f, set, errors, busy, submitError, connectNow, setConnectNow, save } = useServerForm(existing, onClose, template);
  const err = (k: keyof ConfigForm) =>
    errors[k] ? (
      <span className="field-error" data-testid={`server-form-error-${k}`}>
        {errors[k]}
      </span>
    ) : null;
  const section = { f, set, err };

  return (
    <Modal
      title={existing ? `Edit ${existing.name}` : template ? 'Add a server (a copy)' : 'Add a server'}
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
          <input value={f.name} onChange={(e) => set({ name: e.target.value })} data-autofocus data-testid="server-form-name" />
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
        {f.type === 'stdio' ? <StdioFields {...section} /> : <RemoteFields {...section} />}
        <label className="field">
          <span className="field-label">Protocol</span>
          <select value={f.protocol} onChange={(e) => set({ protocol: e.target.value as ConfigForm['protocol'] })} data-testid="server-form-protocol">
            {PROTOCOL_CHOICES.map((c) => (
              <option key={c.value} value={c.value} disabled={c.value === '2026-07-28' && f.type === 'sse'}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Request timeout (ms) <span className="muted small">(optional)</span></span>
          <input value={f.timeoutMs} onChange={(e) => set({ timeoutMs: e.target.value })} inputMode="numeric" placeholder="default" data-testid="server-form-timeout" />
          {err('timeoutMs')}
        </label>
        {!existing && (
          <label className="check" data-testid="server-form-connect">
            <input type="checkbox" checked={connectNow} onChange={(e) => setConnectNow(e.target.checked)} />
            Connect now
            {f.type !== 'stdio' && hasOAuthSettings(f) && !f.oauthDisabled && (f.oauthRest.grant ?? 'authorizationCode') === 'authorizationCode' && <span className="muted small">(with OAuth settings it waits for you to sign in)</span>}
          </label>
        )}
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

/** What the form's sections get: the values, the setter, and a field's error. */
interface SectionProps {
  f: ConfigForm;
  set: (p: Partial<ConfigForm>) => void;
  err: (k: keyof ConfigForm) => ReactNode;
}

/** A stdio server: command, arguments, environment, working directory. */
function StdioFields({ f, set, err }: SectionProps) {
  return (
    <>
      <CommandField f={f} set={set} error={err('command')} />
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
  );
}

/** An http/sse server: URL, bearer token, headers, OAuth. */
function RemoteFields({ f, set, err }: SectionProps) {
  return (
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
      <OAuthSection f={f} set={set} err={err} />
    </>
  );
}

const TEST_IDS: Record<OAuthField, string> = {
  revision: 'server-form-oauth-revision',
  registration: 'server-form-oauth-registration',
  clientId: 'server-form-oauth-client-id',
  clientSecret: 'server-form-oauth-client-secret',
  clientMetadataUrl: 'server-form-oauth-cimd',
  scope: 'server-form-oauth-scope',
};

/** OAuth settings of an http/sse server; all optional (mcplab discovers and registers itself). */
function OAuthSection({ f, set, err }: SectionProps) {
  const [open, setOpen] = useState(() => hasOAuthSettings(f));
  const problems = !!(err('oauthClientId') || err('oauthMetadataUrl'));
  const ownHeader = !!f.bearer.trim() || f.headers.some((h) => h.key.trim().toLowerCase() === 'authorization');
  const fields = {
    values: oauthValues(f),
    onChange: (p: Partial<OAuthValues>) => set(oauthPatch(p)),
    testIds: TEST_IDS,
    disabled: f.oauthDisabled,
    errors: { clientId: err('oauthClientId'), clientMetadataUrl: err('oauthMetadataUrl') },
    registrationDefault: 'default (auto)',
    emptyScope: 'placeholder' as const,
  };
  return (
    <details className="field server-form-oauth" open={open || problems} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary data-testid="server-form-oauth">
        OAuth <span className="muted small">(optional: without settings mcplab discovers the authorization server and registers itself)</span>
      </summary>
      <div className="fields server-form-oauth-fields">
        <label className="check" data-testid="server-form-oauth-disabled">
          <input type="checkbox" checked={f.oauthDisabled} onChange={(e) => set({ oauthDisabled: e.target.checked })} />
          Never use OAuth for this server (a 401 is then just an error)
        </label>
        {ownHeader && !f.oauthDisabled && <div className="muted small">This server has its own Authorization header, so mcplab does not sign in to it.</div>}
        <div className="server-form-oauth-grid">
          <OAuthFields part="choices" {...fields} />
          <OAuthFields part="client" {...fields} />
        </div>
      </div>
    </details>
  );
}
