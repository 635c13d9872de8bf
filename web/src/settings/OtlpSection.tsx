// The OpenTelemetry export: the collector address chat turns and eval iterations are sent to
// as spans (OTLP/HTTP), saved on the server and used from the next turn or run; and how the
// export went since mcplab started. Read-only while `serve --otlp` fixed it.
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorMessage } from '../api/client';
import type { OtlpSettings } from '../api/types.gen';
import { Button } from '../ui/Button';
import { ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';

const OTLP_KEY = ['otlp'] as const;

/** One line on how the export went, or null before anything was sent. */
export function otlpStatus(s: OtlpSettings): string | null {
  if (!s.endpoint) return null;
  const parts = [`${s.sentSpans} span${s.sentSpans === 1 ? '' : 's'} sent`];
  if (s.failedBatches > 0) parts.push(`${s.failedBatches} batch${s.failedBatches === 1 ? '' : 'es'} failed (${s.firstError ?? 'no reason given'})`);
  if (s.droppedSpans > 0) parts.push(`${s.droppedSpans} dropped (queue full)`);
  return parts.join(' · ');
}

export function OtlpSection() {
  const qc = useQueryClient();
  const stored = useQuery({ queryKey: OTLP_KEY, queryFn: api.otlp, refetchOnMount: 'always' });
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const s = stored.data;
  const value = draft ?? s?.endpoint ?? '';

  const save = async (endpoint: string | null) => {
    setSaving(true);
    setMessage(null);
    try {
      const next = await api.setOtlp(endpoint);
      qc.setQueryData(OTLP_KEY, next);
      setDraft(null);
      setMessage({ ok: true, text: next.endpoint ? `Spans go to ${next.endpoint} from the next turn or run.` : 'Nothing is exported.' });
    } catch (e) {
      setMessage({ ok: false, text: errorMessage(e) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card" data-testid="otlp-section">
      <h2>OpenTelemetry</h2>
      <p className="small muted">
        Send each chat turn and eval iteration as spans (GenAI conventions: model, tokens, tool calls, cost, verdict) to an OTLP/HTTP collector, such as http://127.0.0.1:4318.
      </p>
      {stored.error && !s ? (
        <ErrorState title="Could not load the OpenTelemetry setting" message={errorMessage(stored.error)} onRetry={() => void stored.refetch()} />
      ) : !s ? (
        <Loading />
      ) : (
        <>
          <div className="kv-row">
            <input
              value={value}
              placeholder="http://127.0.0.1:4318"
              className="mono"
              disabled={s.fromFlag}
              onChange={(e) => setDraft(e.target.value)}
              aria-label="OTLP collector address"
              data-testid="otlp-endpoint"
            />
          </div>
          {s.fromFlag && <div className="small muted">Set by --otlp when mcplab started.</div>}
          <div className="actions">
            <Button variant="primary" small onClick={() => void save(value.trim() || null)} busy={saving} disabled={s.fromFlag} data-testid="otlp-save">
              Save
            </Button>
            {s.endpoint && !s.fromFlag && (
              <Button small variant="ghost" onClick={() => void save(null)} disabled={saving} data-testid="otlp-off">
                Stop exporting
              </Button>
            )}
            {message && (
              <span className={message.ok ? 'ok-text small' : 'inline-error'} data-testid="otlp-message">
                {message.text}
              </span>
            )}
          </div>
          {otlpStatus(s) && (
            <div className={s.failedBatches > 0 ? 'inline-error small' : 'small muted'} data-testid="otlp-status">
              {otlpStatus(s)}
            </div>
          )}
        </>
      )}
    </section>
  );
}
