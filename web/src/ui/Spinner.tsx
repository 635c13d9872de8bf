// The busy indicator (`role=status`, optional label) and the page-level Loading state built
// on it.
export function Spinner({ small, label }: { small?: boolean; label?: string }) {
  return (
    <span className={`spinner-wrap${small ? ' small' : ''}`} role="status" data-testid="spinner">
      <span className="spinner" aria-hidden="true" />
      {label && <span className="spinner-label">{label}</span>}
    </span>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state state-loading">
      <Spinner label={label} />
    </div>
  );
}
