// A collapsible JSON tree. Nodes deeper than `expandDepth` start collapsed and long
// arrays/objects show their first entries with a "show more" control, so a huge value
// never renders all at once. `opens` can decide a node's first state by its key and depth
// (the x-ray folds the tool definitions and opens the messages).
import { useState } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';

const PAGE = 100;

type Opens = (name: string | undefined, depth: number) => boolean | undefined;

export function JsonTree({ value, expandDepth = 2, testId, opens }: { value: unknown; expandDepth?: number; testId?: string; opens?: Opens }) {
  return (
    <div className="json-tree" data-testid={testId}>
      <Node value={value} depth={0} expandDepth={expandDepth} opens={opens} />
    </div>
  );
}

function Node({ name, value, depth, expandDepth, opens }: { name?: string; value: unknown; depth: number; expandDepth: number; opens?: Opens }) {
  const isObj = value !== null && typeof value === 'object';
  const [open, setOpen] = useState(() => opens?.(name, depth) ?? depth < expandDepth);
  const [limit, setLimit] = useState(PAGE);
  const label = name !== undefined && <span className="jt-key">{name}: </span>;
  if (!isObj) {
    return (
      <div className="jt-row">
        {label}
        <Scalar value={value} />
      </div>
    );
  }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value as Record<string, unknown>);
  const [o, c] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const summary = Array.isArray(value) ? `${entries.length} items` : `${entries.length} keys`;
  return (
    <div className="jt-node">
      <button
        type="button"
        className="jt-toggle"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        disabled={entries.length === 0}
      >
        <span className="jt-caret">{entries.length === 0 ? null : open ? <ChevronDown size={12} aria-hidden="true" /> : <ChevronRight size={12} aria-hidden="true" />}</span>
        {label}
        <span className="jt-punct">{o}</span>
        {(!open || entries.length === 0) && (
          <>
            {entries.length > 0 && <span className="jt-summary"> {summary} </span>}
            <span className="jt-punct">{c}</span>
          </>
        )}
      </button>
      {open && entries.length > 0 && (
        <>
          <div className="jt-children">
            {entries.slice(0, limit).map(([k, v]) => (
              <Node key={k} name={k} value={v} depth={depth + 1} expandDepth={expandDepth} opens={opens} />
            ))}
            {entries.length > limit && (
              <button type="button" className="jt-more" onClick={() => setLimit(limit + PAGE * 10)}>
                show more ({entries.length - limit} hidden)
              </button>
            )}
          </div>
          <span className="jt-punct jt-close">{c}</span>
        </>
      )}
    </div>
  );
}

function Scalar({ value }: { value: unknown }) {
  if (value === null) return <span className="jt-null">null</span>;
  switch (typeof value) {
    case 'string':
      return <span className="jt-string">{JSON.stringify(value)}</span>;
    case 'number':
      return <span className="jt-number">{String(value)}</span>;
    case 'boolean':
      return <span className="jt-bool">{String(value)}</span>;
    default:
      return <span className="jt-null">{String(value)}</span>;
  }
}
