// One compare in the session list: its columns' models (and titles on hover), opening the
// compare view with every column; export of the whole compare (JSON / Markdown, every column,
// from `/api/compares/{group}/export`); delete (second click confirms) removes every column.
import { useState } from 'react';
import { api } from '../api/client';
import type { SessionSummary } from '../api/types.gen';
import { Button } from '../ui/Button';
import { download } from '../ui/CopyButton';
import { navigate } from '../ui/route';
import { useAction } from '../ui/useAction';
import { useChatCache } from './store';

interface Props {
  group: string;
  sessions: SessionSummary[];
  selected: boolean;
  onDeleted: (id: string) => void;
}

export function CompareGroupRow({ group, sessions, selected, onDeleted }: Props) {
  const [confirm, setConfirm] = useState(false);
  const { busy, error, act } = useAction();
  const cache = useChatCache();
  const exportAs = (format: 'json' | 'markdown') =>
    act(async () => {
      const file = await api.exportCompare(group, format);
      download(file.filename ?? `compare.${format === 'json' ? 'json' : 'md'}`, file.text, file.type);
    });
  // One by one, so a failure stops with the rest still listed (and says which).
  const del = () =>
    act(async () => {
      for (const s of sessions) {
        await api.deleteSession(s.id);
        cache.removeSession(s.id);
        onDeleted(s.id);
      }
    });
  const newest = Math.max(...sessions.map((s) => s.updatedMs));
  const labels = sessions.map((s) => s.hostConfig.model.split('::').pop() ?? s.hostConfig.model);
  return (
    <li className={`session-row${selected ? ' selected' : ''}`} data-testid="compare-group" data-group={group} data-columns={sessions.length}>
      <button
        type="button"
        className="session-main"
        onClick={() => navigate('chat', 'compare', ...sessions.map((s) => s.id))}
        aria-current={selected || undefined}
        title={sessions.map((s, i) => `${i + 1}. ${s.title}`).join('\n')}
        data-testid={`compare-group-open-${group}`}
      >
        <span className="session-title">Compare · {sessions.length} columns</span>
        <span className="session-sub small muted">
          {new Date(newest).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })} · {labels.join(' | ')}
        </span>
      </button>
      <div className="session-actions">
        {confirm ? (
          <>
            <Button small variant="danger" onClick={del} busy={busy} data-testid={`compare-group-delete-confirm-${group}`}>
              Delete {sessions.length} chats?
            </Button>
            <Button small variant="ghost" onClick={() => setConfirm(false)}>
              Keep
            </Button>
          </>
        ) : (
          <>
            <Button small variant="ghost" onClick={() => exportAs('json')} busy={busy} data-testid={`compare-group-export-json-${group}`} title="Download every column as JSON">
              JSON
            </Button>
            <Button small variant="ghost" onClick={() => exportAs('markdown')} busy={busy} data-testid={`compare-group-export-markdown-${group}`} title="Download every column as Markdown">
              MD
            </Button>
            <Button small variant="ghost" onClick={() => setConfirm(true)} data-testid={`compare-group-delete-${group}`} title="Delete every column">
              Delete
            </Button>
          </>
        )}
      </div>
      {error && (
        <div className="inline-error small" role="alert">
          {error}
        </div>
      )}
    </li>
  );
}
