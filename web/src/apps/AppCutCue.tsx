// The cue under an inline app taller than its host lets it be: a fade over the frame's last
// lines and a line saying how much is cut, with "Show all" (mcplab grows the frame to the
// app's height; the app is still told the host's limit) and a link that opens the tool in the
// Playground, where the device, its height and display modes can be changed. Stateless.
export function AppCutCue({ height, limit, showAll, onShowAll, playground }: { height: number; limit: number; showAll: boolean; onShowAll: (all: boolean) => void; playground: string }) {
  return (
    <>
      {!showAll && <div className="app-cut-fade" aria-hidden="true" data-testid="app-cut-fade" />}
      <div className="app-cut small" data-testid="app-cut" role="note">
        <span className="muted">
          {showAll
            ? `Shown whole (${height} px); this host stops inline apps at ${limit} px.`
            : `The app is ${height} px high; this host shows ${limit} px inline (the rest scrolls inside it).`}
        </span>
        <button type="button" className="linkish small" onClick={() => onShowAll(!showAll)} data-testid="app-cut-toggle" aria-pressed={showAll}>
          {showAll ? `Back to ${limit} px` : 'Show all'}
        </button>
        <a className="small" href={playground} data-testid="app-cut-playground">
          Open in Playground
        </a>
      </div>
    </>
  );
}
