// Rows of name/value inputs (env variables, HTTP headers) with add and remove; values can be
// masked as passwords. It edits the list it is given and keeps no state of its own.
import { Button } from './Button';
import { X } from 'lucide-react';

export type Pair = { key: string; value: string };

/** Editable list of key/value pairs (env variables, HTTP headers). */
export function KeyValueEditor({
  pairs,
  onChange,
  keyPlaceholder = 'NAME',
  valuePlaceholder = 'value',
  testId,
  secretValues,
}: {
  pairs: Pair[];
  onChange: (p: Pair[]) => void;
  keyPlaceholder?: string;
  valuePlaceholder?: string;
  testId: string;
  secretValues?: boolean;
}) {
  const set = (i: number, p: Partial<Pair>) => onChange(pairs.map((x, j) => (j === i ? { ...x, ...p } : x)));
  return (
    <div className="kv-editor" data-testid={testId}>
      {pairs.map((p, i) => (
        <div key={i} className="kv-row">
          <input value={p.key} placeholder={keyPlaceholder} onChange={(e) => set(i, { key: e.target.value })} aria-label={`${testId} name ${i + 1}`} data-testid={`${testId}-key-${i}`} />
          <input
            value={p.value}
            placeholder={valuePlaceholder}
            type={secretValues ? 'password' : 'text'}
            onChange={(e) => set(i, { value: e.target.value })}
            aria-label={`${testId} value ${i + 1}`}
            data-testid={`${testId}-value-${i}`}
          />
          <Button small variant="ghost" onClick={() => onChange(pairs.filter((_, j) => j !== i))} aria-label="Remove">
            <X size={14} aria-hidden="true" />
          </Button>
        </div>
      ))}
      <Button small variant="ghost" onClick={() => onChange([...pairs, { key: '', value: '' }])} data-testid={`${testId}-add`}>
        + Add
      </Button>
    </div>
  );
}
