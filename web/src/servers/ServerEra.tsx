// Which protocol era and revision a connected server is spoken to in, how mcplab chose it
// (server/discover answered, or failed and the initialize handshake took over), what discovery
// returned, the features of the revision that are deprecated, and — for a server that speaks
// both eras — a one-click switch to compare them.
import { useState } from 'react';
import { errorMessage, type InitializeResult } from '../api/client';
import type { ProtocolChoice, ServerView } from '../api/types.gen';
import { modernApi } from '../modern/api';
import { Button } from '../ui/Button';
import { JsonTree } from '../ui/JsonTree';
import '../modern/modern.css';
import { upsertServer } from './store';

/** Features of the server that 2026-07-28 deprecates (or the transport, deprecated earlier). */
function deprecations(view: ServerView): string[] {
  const out: string[] = [];
  if (view.config.type === 'sse') out.push('HTTP+SSE transport (deprecated since 2025-03-26; use streamable HTTP)');
  const caps: Record<string, unknown> = (view.info as InitializeResult | null)?.capabilities ?? {};
  if (view.era?.era === 'modern') {
    if (caps.logging) out.push('logging (deprecated in 2026-07-28; log to stderr or use OpenTelemetry)');
    out.push('roots and sampling requests (deprecated in 2026-07-28)');
  }
  return out;
}

export function ServerEra({ view }: { view: ServerView }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const era = view.era;
  if (!era) return null;
  const choice = view.config.protocol ?? 'auto';
  const switchTo = async (protocol: ProtocolChoice) => {
    setBusy(true);
    setError(null);
    try {
      upsertServer(await modernApi.switchProtocol(view.config.name, protocol));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const other = era.alternative ?? (choice !== 'auto' ? 'auto' : null);
  const deprecated = deprecations(view);
  return (
    <section className="server-era" data-testid="server-era">
      <dl className="kv-grid">
        <dt>Era</dt>
        <dd>
          <span className={`badge badge-${era.era === 'modern' ? 'info' : 'plain'}`} data-testid="server-era-name">
            {era.era}
          </span>{' '}
          <span className="mono" data-testid="server-era-revision">
            {era.revision}
          </span>
          <div className="muted small" data-testid="server-era-how">
            {keepDates(era.how)}
          </div>
        </dd>
        {era.supported && era.supported.length > 0 && (
          <>
            <dt>Speaks</dt>
            <dd className="mono small" data-testid="server-era-supported">
              {era.supported.join(', ')}
            </dd>
          </>
        )}
        {deprecated.length > 0 && (
          <>
            <dt>Deprecated</dt>
            <dd>
              <span className="badges">
                {deprecated.map((d) => (
                  <span key={d} className="badge badge-warn" data-testid="server-era-deprecated">
                    {d}
                  </span>
                ))}
              </span>
            </dd>
          </>
        )}
      </dl>
      {other && (
        <div className="row">
          <Button small onClick={() => switchTo(other)} busy={busy} data-testid="server-era-switch">
            {era.alternative ? `Switch to ${other} to compare` : `Back to ${other}`}
          </Button>
          {error && (
            <span className="inline-error" role="alert">
              {error}
            </span>
          )}
        </div>
      )}
      {era.discovery !== undefined && (
        <details>
          <summary className="small">server/discover result</summary>
          <JsonTree value={era.discovery} expandDepth={1} testId="server-era-discovery" />
        </details>
      )}
    </section>
  );
}

/** `text` with each revision date (2026-07-28) kept on one line: a narrow pane otherwise
 * breaks it at its hyphen ("2026-" / "07-28"). */
function keepDates(text: string) {
  return text.split(/(\d{4}-\d{2}-\d{2})/).map((part, i) =>
    i % 2 ? (
      <span key={i} className="nowrap">
        {part}
      </span>
    ) : (
      part
    ),
  );
}
