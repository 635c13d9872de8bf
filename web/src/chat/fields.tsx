// Small form fields of the chat settings that keep a draft while typing and commit on blur
// or Enter (each commit is a PATCH). A value changed from outside (an imported config, the
// server's reply) replaces the draft.
import { useState } from 'react';

/** A draft of `value` that follows it when it changes from outside. */
export function useDraft(value: string): [string, (v: string) => void] {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    setDraft(value);
  }
  return [draft, setDraft];
}

export function NumberField({
  label,
  value,
  onCommit,
  testId,
  ...rest
}: {
  label: string;
  value: number | null;
  onCommit: (raw: string) => void;
  testId: string;
  step: string;
  min: string;
  max?: string;
  placeholder: string;
}) {
  const [draft, setDraft] = useDraft(value === null ? '' : String(value));
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

export function TextField({ label, value, placeholder, testId, onCommit }: { label: string; value: string | null; placeholder: string; testId: string; onCommit: (v: string) => void }) {
  const [draft, setDraft] = useDraft(value ?? '');
  const commit = () => draft.trim() !== (value ?? '') && onCommit(draft);
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input value={draft} placeholder={placeholder} onChange={(e) => setDraft(e.target.value)} onBlur={commit} onKeyDown={(e) => e.key === 'Enter' && commit()} data-testid={testId} />
    </label>
  );
}
