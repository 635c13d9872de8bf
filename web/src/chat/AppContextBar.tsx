// What apps have given the model for its next turn (`ui/update-model-context`, widget state),
// one entry per app, visible to the user and removable; and the apps' follow-up messages
// waiting for the running turn to end.
import { useState } from 'react';
import { errorMessage } from '../api/client';
import type { AppContextEntry } from '../api/types.gen';
import { appsApi } from '../apps/api';
import { contentText } from '../apps/content';

function preview(e: AppContextEntry): string {
  const text = contentText(e.content);
  const structured = e.structuredContent === null || e.structuredContent === undefined ? '' : JSON.stringify(e.structuredContent);
  return [text, structured].filter(Boolean).join(' · ');
}

export function AppContextBar({ sessionId, entries, queued }: { sessionId: string; entries: AppContextEntry[]; queued: string[] }) {
  const [error, setError] = useState<string | null>(null);
  if (!entries.length && !queued.length) return null;
  return (
    <div className="app-context-bar small" data-testid="chat-app-context">
      {entries.length > 0 && (
        <div>
          <span className="muted">Given to the model with your next message:</span>
          <ul>
            {entries.map((e) => (
              <li key={e.key} data-testid="chat-app-context-entry" data-source={e.source}>
                <span className="badge">{e.source === 'widgetState' ? 'widget state' : 'app context'}</span>{' '}
                <span className="mono">
                  {e.server} › {e.tool}
                </span>{' '}
                <span className="app-context-text">{preview(e)}</span>{' '}
                <button
                  type="button"
                  className="linkish small"
                  onClick={() => appsApi.deleteContext(sessionId, e.key).catch((x) => setError(errorMessage(x)))}
                  data-testid="chat-app-context-remove"
                >
                  remove
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {queued.length > 0 && (
        <div className="muted" data-testid="chat-queued">
          {queued.length === 1 ? 'An app’s message is' : `${queued.length} app messages are`} waiting for the current turn to end.
        </div>
      )}
      {error && <div className="inline-error">{error}</div>}
    </div>
  );
}
