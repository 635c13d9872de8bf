// A content block's annotations (audience, priority, lastModified), shown as chips: these
// tell a host who a block is for and how much it matters, so a server author checks them.
export function Annotations({ value }: { value: unknown }) {
  if (!value || typeof value !== 'object') return null;
  const a = value as { audience?: unknown; priority?: unknown; lastModified?: unknown };
  const chips: { key: string; label: string; title: string }[] = [];
  if (Array.isArray(a.audience)) chips.push({ key: 'audience', label: `for ${a.audience.join(' + ') || 'nobody'}`, title: 'annotations.audience: who this block is meant for' });
  if (typeof a.priority === 'number') chips.push({ key: 'priority', label: `priority ${a.priority}`, title: 'annotations.priority: 1 = most important, 0 = least' });
  if (typeof a.lastModified === 'string') {
    const d = new Date(a.lastModified);
    chips.push({ key: 'lastModified', label: `modified ${Number.isNaN(d.getTime()) ? a.lastModified : d.toLocaleString([], { hour12: false })}`, title: `annotations.lastModified: ${a.lastModified}` });
  }
  if (!chips.length) return null;
  return (
    <span className="badges annotations" data-testid="block-annotations">
      {chips.map((c) => (
        <span key={c.key} className="badge badge-info" title={c.title} data-testid={`annotation-${c.key}`}>
          {c.label}
        </span>
      ))}
    </span>
  );
}
