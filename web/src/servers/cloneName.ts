// The name a cloned server gets: "<name>-copy", or "<name>-copy-2", "-3"… when that is taken.
// Cloning a copy starts from its base ("demo-copy" → "demo-copy-2", not "demo-copy-copy").

export function cloneName(name: string, taken: readonly string[]): string {
  const used = new Set(taken);
  const base = name.replace(/-copy(-\d+)?$/, '');
  const first = `${base}-copy`;
  if (!used.has(first)) return first;
  for (let n = 2; ; n++) {
    const next = `${first}-${n}`;
    if (!used.has(next)) return next;
  }
}
