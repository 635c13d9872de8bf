// The chat sessions, newest first: new, select, rename inline, delete (second click
// confirms), and export links (JSON / Markdown, served by mcplab as downloads). The sessions
// of a compare are one entry (`CompareGroupRow`) that opens the compare view. On narrow
// windows it is a drawer over the conversation (`onClose`: a close button, Escape, or a click
// beside it).
import { useEffect, useState } from 'react';
import { X } from 'lucide-react';
import { api } from '../api/client';
import type { SessionSummary } from '../api/types.gen';
import { Button } from '../ui/Button';
import { download } from '../ui/CopyButton';
import { ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { useAction } from '../ui/useAction';
import { CompareGroupRow } from './CompareGroupRow';
import { listEntries } from './sessionGroups';
import { useChatCache, useSessions } from './store';

function when(ms: number): string {
  const d = new Date(ms);
  const today = new Date().toDateString() === d.toDateString();
  return today ? d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : d.toLocaleDateString([], { month: 'short', day: 'numeric' });
}

interface Props {
  selected: string | null;
  /** The open compare's sessions, when the compare view is shown. */
  comparing: string[] | null;
  onNew: () => void;
  onSelect: (id: string) => void;
  creating: boolean;
  onDeleted: (id: string) => void;
  /** Shown as a drawer: how to close it. */
  onClose?: () => void;
}

function useEscape(onClose: (() => void) | undefined): void {
  useEffect(() => {
    if (!onClose) return;
    const key = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', key);
    return () => window.removeEventListener('keydown', key);
  }, [onClose]);
}

export function SessionList({ selected, comparing, onNew, onSelect, creating, onDeleted, onClose }: Props) {
  const { list, error, reload } = useSessions();
  useEscape(onClose);
  return (
    <>
      {onClose && <div className="chat-drawer-backdrop" onClick={onClose} aria-hidden="true" />}
      <aside className={`chat-sessions${onClose ? ' chat-drawer' : ''}`} aria-label="Chat sessions" data-testid="chat-sessions">
        <div className="chat-sessions-head">
          <Button variant="primary" small onClick={onNew} busy={creating} data-testid="chat-new" className="chat-new">
            + New chat
          </Button>
          {onClose && (
            <Button small variant="ghost" onClick={onClose} aria-label="Close the chat list" data-testid="chat-sessions-close">
              <X size={15} aria-hidden="true" />
            </Button>
          )}
        </div>
        {error && !list ? (
          <ErrorState title="Could not load sessions" message={error} onRetry={reload} />
        ) : !list ? (
          <Loading />
        ) : list.length === 0 ? (
          <div className="muted small pad">No chats yet.</div>
        ) : (
          <ul className="session-list">
            {listEntries(list).map((e) =>
              e.kind === 'session' ? (
                <SessionRow key={e.session.id} s={e.session} selected={e.session.id === selected} onSelect={() => onSelect(e.session.id)} onDeleted={() => onDeleted(e.session.id)} />
              ) : (
                <CompareGroupRow key={e.group} group={e.group} sessions={e.sessions} selected={!!comparing && e.sessions.some((x) => comparing.includes(x.id))} onDeleted={onDeleted} />
              ),
            )}
          </ul>
        )}
      </aside>
    </>
  );
}

function SessionRow({ s, selected, onSelect, onDeleted }: { s: SessionSummary; selected: boolean; onSelect: () => void; onDeleted: () => void }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  const { busy, error, act } = useAction();
  const cache = useChatCache();
  const saveTitle = () => {
    const title = editing?.trim();
    setEditing(null);
    if (title && title !== s.title) void act(() => cache.renameSession(s.id, title));
  };
  const exportAs = (format: 'json' | 'markdown') =>
    act(async () => {
      const file = await api.exportSession(s.id, format);
      download(file.filename ?? `session.${format === 'json' ? 'json' : 'md'}`, file.text, file.type);
    });
  const del = () =>
    act(async () => {
      await api.deleteSession(s.id);
      cache.removeSession(s.id);
      onDeleted();
    });

  return (
    <li className={`session-row${selected ? ' selected' : ''}`}>
      {editing !== null ? (
        <input
          autoFocus
          value={editing}
          onChange={(e) => setEditing(e.target.value)}
          onBlur={saveTitle}
          onKeyDown={(e) => {
            if (e.key === 'Enter') saveTitle();
            if (e.key === 'Escape') setEditing(null);
          }}
          aria-label="Chat title"
          data-testid={`session-rename-input-${s.id}`}
        />
      ) : (
        <button type="button" className="session-main" onClick={onSelect} aria-current={selected || undefined} data-testid={`session-item-${s.id}`}>
          <span className="session-title">{s.title || 'Untitled chat'}</span>
          <span className="session-sub small muted">
            {when(s.updatedMs)} · {s.hostConfig.model ? s.hostConfig.model.split('::').pop() : 'no model'}
          </span>
        </button>
      )}
      <div className="session-actions">
        {confirm ? (
          <>
            <Button small variant="danger" onClick={del} busy={busy} data-testid={`session-delete-confirm-${s.id}`}>
              Delete?
            </Button>
            <Button small variant="ghost" onClick={() => setConfirm(false)}>
              Keep
            </Button>
          </>
        ) : (
          <>
            <Button small variant="ghost" onClick={() => setEditing(s.title)} data-testid={`session-rename-${s.id}`} title="Rename">
              Rename
            </Button>
            <Button small variant="ghost" onClick={() => exportAs('json')} data-testid={`session-export-json-${s.id}`} title="Download as JSON">
              JSON
            </Button>
            <Button small variant="ghost" onClick={() => exportAs('markdown')} data-testid={`session-export-markdown-${s.id}`} title="Download as Markdown">
              MD
            </Button>
            <Button small variant="ghost" onClick={() => setConfirm(true)} data-testid={`session-delete-${s.id}`} title="Delete">
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
