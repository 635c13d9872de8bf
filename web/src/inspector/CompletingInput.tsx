// A text input that offers the server's completions (completion/complete) as you type, as
// chips under it (one list: no browser datalist repeating them), gone once one is picked.
import { useEffect, useRef, useState } from 'react';
import { api } from '../api/client';
import type { CompleteRequest } from '../api/types.gen';

export function CompletingInput({
  server,
  reference,
  name,
  value,
  context,
  onChange,
  enabled,
  testId,
  required,
}: {
  server: string;
  reference: CompleteRequest['ref'];
  name: string;
  value: string;
  context: Record<string, string>;
  onChange: (v: string) => void;
  enabled: boolean;
  testId?: string;
  required?: boolean;
}) {
  const [values, setValues] = useState<string[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const seq = useRef(0);
  const ctxKey = JSON.stringify(context);
  const refKey = JSON.stringify(reference);

  useEffect(() => {
    if (!enabled) return;
    const n = ++seq.current;
    const t = window.setTimeout(() => {
      api
        .complete(server, { ref: JSON.parse(refKey), argument: { name, value }, context: JSON.parse(ctxKey) })
        .then((out) => {
          if (n !== seq.current) return;
          if (out.error) {
            setValues([]);
            setNote(`completions: ${out.error.message}`);
            return;
          }
          const c = out.result?.completion;
          setValues(Array.isArray(c?.values) ? c.values.map(String) : []);
          setNote(c?.hasMore ? `${c.total ?? 'more'} matches, first ${c.values.length} shown` : null);
        })
        .catch(() => n === seq.current && setValues([]));
    }, 200);
    return () => window.clearTimeout(t);
  }, [server, refKey, name, value, ctxKey, enabled]);

  return (
    <>
      <input
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
        required={required}
        aria-label={name}
        autoComplete="off"
      />
      {enabled && values.length > 0 && !values.includes(value) && (
        <div className="chips" aria-label="Suggestions" data-testid={testId ? `${testId}-completions` : undefined}>
          {values.slice(0, 12).map((v) => (
            <button key={v} type="button" className="chip" onClick={() => onChange(v)} data-testid="completion-option">
              {v}
            </button>
          ))}
        </div>
      )}
      {note && <div className="small muted">{note}</div>}
    </>
  );
}
