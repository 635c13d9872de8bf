// The Settings page: theme, LLM providers (`ProvidersSection`), the roots offered to
// servers and the OpenTelemetry export (`OtlpSection`). Roots are saved as a whole list; the
// server tells connected servers they changed.
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorMessage } from '../api/client';
import type { RootView } from '../api/types.gen';
import { Button } from '../ui/Button';
import { ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { OtlpSection } from './OtlpSection';
import { ProvidersSection } from './ProvidersSection';
import { useTheme, type ThemePref } from './theme';
import { X } from 'lucide-react';

export function SettingsPage() {
  const [theme, setTheme] = useTheme();
  return (
    <div className="page settings-page" data-testid="settings-page">
      <div className="page-head">
        <h1>Settings</h1>
      </div>
      <section className="card">
        <h2>Theme</h2>
        <div className="segmented" role="radiogroup" aria-label="Theme">
          {(['system', 'light', 'dark'] as ThemePref[]).map((t) => (
            <label key={t} className={theme === t ? 'on' : ''} data-testid={`theme-${t}`}>
              <input type="radio" name="theme" checked={theme === t} onChange={() => setTheme(t)} />
              {t}
            </label>
          ))}
        </div>
      </section>
      <ProvidersSection />
      <RootsEditor />
      <OtlpSection />
    </div>
  );
}

const ROOTS_KEY = ['roots'] as const;

function RootsEditor() {
  const qc = useQueryClient();
  const stored = useQuery({ queryKey: ROOTS_KEY, queryFn: api.roots, refetchOnMount: 'always' });
  // The person's edits since the last load or save; null: show what is stored.
  const [draft, setDraft] = useState<RootView[] | null>(null);
  const roots = draft ?? stored.data ?? null;
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const set = (i: number, p: Partial<RootView>) => setDraft((roots ?? []).map((r, j) => (j === i ? { ...r, ...p } : r)));
  const invalid = (roots ?? []).map((r) => !/^[a-z][a-z0-9+.-]*:/i.test(r.uri.trim()));

  const save = async () => {
    if (!roots) return;
    setSaving(true);
    setMessage(null);
    const clean = roots
      .filter((r) => r.uri.trim())
      .map((r) => (r.name?.trim() ? { uri: r.uri.trim(), name: r.name.trim() } : { uri: r.uri.trim() }));
    try {
      qc.setQueryData(ROOTS_KEY, await api.setRoots(clean));
      setDraft(null);
      setMessage({ ok: true, text: 'Saved. Connected servers were told the roots changed.' });
    } catch (e) {
      setMessage({ ok: false, text: errorMessage(e) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card" data-testid="roots-editor">
      <h2>Roots</h2>
      <p className="small muted">Directories (as file:// URIs) offered to servers that ask for roots.</p>
      {stored.error && !roots ? (
        <ErrorState title="Could not load roots" message={errorMessage(stored.error)} onRetry={() => void stored.refetch()} />
      ) : !roots ? (
        <Loading />
      ) : (
        <>
          {roots.length === 0 && <div className="muted small">No roots.</div>}
          {roots.map((r, i) => (
            <div key={i} className="kv-row">
              <input value={r.uri} placeholder="file:///home/me/project" className="mono" onChange={(e) => set(i, { uri: e.target.value })} aria-label={`Root ${i + 1} URI`} aria-invalid={invalid[i] || undefined} data-testid={`root-uri-${i}`} />
              <input value={r.name ?? ''} placeholder="name (optional)" onChange={(e) => set(i, { name: e.target.value })} aria-label={`Root ${i + 1} name`} data-testid={`root-name-${i}`} />
              <Button small variant="ghost" onClick={() => setDraft(roots.filter((_, j) => j !== i))} aria-label="Remove root" data-testid={`root-remove-${i}`}>
                <X size={14} aria-hidden="true" />
              </Button>
            </div>
          ))}
          {invalid.some((x, i) => x && roots[i].uri.trim()) && <div className="field-error">Each root needs a URI such as file:///path</div>}
          <div className="actions">
            <Button small onClick={() => setDraft([...roots, { uri: 'file:///' }])} data-testid="root-add">
              + Add root
            </Button>
            <Button variant="primary" small onClick={save} busy={saving} disabled={invalid.some((x, i) => x && roots[i].uri.trim() !== '')} data-testid="roots-save">
              Save roots
            </Button>
            {message && (
              <span className={message.ok ? 'ok-text small' : 'inline-error'} data-testid="roots-message">
                {message.text}
              </span>
            )}
          </div>
        </>
      )}
    </section>
  );
}
