// The one time format of the traffic views: local wall-clock time with milliseconds. One
// formatter for every row: `toLocaleTimeString` with options builds a new one per call, which
// cost about 20 ms per page load with a screenful of traffic rows.
let wallClock: Intl.DateTimeFormat | null = null;

export function fmtTime(ms: number): string {
  // The same fields and options `toLocaleTimeString([], { hour12: false })` uses.
  wallClock ??= new Intl.DateTimeFormat([], { hour: 'numeric', minute: 'numeric', second: 'numeric', hour12: false });
  const d = new Date(ms);
  return `${wallClock.format(d)}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

export function fmtSize(n: number): string {
  return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;
}
