// The Servers page: the configured servers with their status beside the selected one's detail
// (`#/servers/<name>`), add/edit/clone form, import and export. Server state comes from the servers
// store; this page only starts actions and shows their errors.
import { useEffect, useRef, useState } from 'react';
import { GripVertical } from 'lucide-react';
import { api, errorMessage } from '../api/client';
import type { ServerConfig, ServerView } from '../api/types.gen';
import { Button } from '../ui/Button';
import { download } from '../ui/CopyButton';
import { EmptyState, ErrorState } from '../ui/States';
import { Loading } from '../ui/Spinner';
import { useRouteArg } from '../ui/route';
import { ImportDialog } from './ImportDialog';
import { ServerDetail } from './ServerDetail';
import { cloneName } from './cloneName';
import { ServerForm } from './ServerForm';
import { StatusBadge } from './StatusBadge';
import { signIn } from './signIn';
import { reloadServers, removeServer, saveServerOrder, selectServer, upsertServer, usePendingSignIn, useSelectedServer, useServers } from './store';
import { useRowDrag, type RowDrag } from './useRowDrag';
import { Ticks } from '../ui/Ticks';

export function describe(c: ServerConfig): string {
  return c.type === 'stdio' ? [c.command, ...(c.args ?? [])].join(' ') : c.url;
}

export function ServersPage() {
  const { list, error, loading } = useServers();
  const selected = useSelectedServer();
  const [form, setForm] = useState<{ existing?: ServerConfig; template?: ServerConfig } | null>(null);
  const [importing, setImporting] = useState(false);
  const [pageError, setPageError] = useState<string | null>(null);
  // `#/servers/<name>` (where a sign-in's redirect lands) selects that server.
  const arg = useRouteArg();
  useEffect(() => {
    if (arg) selectServer(arg);
  }, [arg]);

  const doExport = async () => {
    setPageError(null);
    try {
      const doc = await api.exportServers();
      download('mcp-servers.json', JSON.stringify(doc, null, 2));
    } catch (e) {
      setPageError(`Export failed: ${errorMessage(e)}`);
    }
  };

  const view = list?.find((v) => v.config.name === selected);
  return (
    <div className="page servers-page" data-testid="servers-page">
      <div className="page-head">
        <h1>Servers</h1>
        <div className="toolbar">
          <Button variant="primary" onClick={() => setForm({})} data-testid="server-add">
            + Add server
          </Button>
          <Button onClick={() => setImporting(true)} data-testid="server-import">
            Import
          </Button>
          <Button onClick={doExport} disabled={!list?.length} data-testid="server-export">
            Export
          </Button>
        </div>
      </div>
      {pageError && <div className="inline-error" role="alert">{pageError}</div>}
      {error && !list ? (
        <ErrorState title="Could not load servers" message={error} onRetry={() => void reloadServers()} />
      ) : !list ? (
        <Loading label={loading ? 'Loading servers…' : undefined} />
      ) : list.length === 0 ? (
        <EmptyState page="servers" title="No servers yet" testId="servers-empty">
          Add a server (a command to run, or a URL), or import an <code>mcpServers</code> file.
        </EmptyState>
      ) : (
        <div className="servers-split">
          <ServerList list={list} selected={selected} onError={setPageError} onForm={setForm} />
          <div className="server-detail-wrap">{view ? <ServerDetail view={view} /> : null}</div>
        </div>
      )}
      {form && <ServerForm existing={form.existing} template={form.template} onClose={() => setForm(null)} />}
      {importing && <ImportDialog onClose={() => setImporting(false)} />}
    </div>
  );
}

/** The rows, in the user's order, which a row's handle changes (drag or arrow keys). */
function ServerList({ list, selected, onError, onForm }: { list: ServerView[]; selected: string | null; onError: (e: string | null) => void; onForm: (f: { existing?: ServerConfig; template?: ServerConfig }) => void }) {
  const ref = useRef<HTMLUListElement>(null);
  const names = list.map((v) => v.config.name);
  const save = (order: string[], moved: string) => {
    onError(null);
    saveServerOrder(order).catch((e) => onError(`Could not move ${moved}; the old order is back. ${errorMessage(e)}`));
  };
  const drag = useRowDrag(names, ref, save);
  const byName = new Map(list.map((v) => [v.config.name, v]));
  return (
    <>
      <ul className={`server-list${drag.dragging ? ' reordering' : ''}`} aria-label="Servers" ref={ref} data-testid="server-list">
        {drag.shown.map((name) => {
          const v = byName.get(name);
          if (!v) return null;
          return (
            <ServerRow
              key={name}
              view={v}
              selected={name === selected}
              drag={list.length > 1 ? { ...drag, place: names.indexOf(name) + 1, count: names.length } : null}
              onEdit={() => onForm({ existing: v.config })}
              onClone={() => onForm({ template: { ...v.config, name: cloneName(name, names) } })}
            />
          );
        })}
      </ul>
      <div className="sr-only" aria-live="polite" data-testid="server-order-status">
        {drag.announcement}
      </div>
    </>
  );
}

function ServerRow({ view, selected, drag, onEdit, onClone }: { view: ServerView; selected: boolean; drag: (RowDrag & { place: number; count: number }) | null; onEdit: () => void; onClone: () => void }) {
  const name = view.config.name;
  const st = view.status.state;
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const pending = usePendingSignIn(name);

  const doSignIn = async () => {
    setBusy('signin');
    setError(null);
    try {
      const r = await signIn(name);
      if (r.outcome === 'failed') setError(r.message);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };

  const act = async (what: 'connect' | 'disconnect' | 'reconnect' | 'delete') => {
    setBusy(what);
    setError(null);
    try {
      if (what === 'delete') {
        await api.deleteServer(name);
        removeServer(name);
        return;
      }
      upsertServer(await api[what](name));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <li className={`server-row${selected ? ' selected' : ''}${drag?.dragging === name ? ' dragging' : ''}`} data-testid={`server-row-${name}`} data-drag-row={name}>
      <div className="server-row-head">
        {drag && (
          <button
            type="button"
            className="drag-handle"
            data-drag-handle={name}
            data-testid={`server-move-${name}`}
            aria-label={`Move ${name}, place ${drag.place} of ${drag.count}`}
            title="Drag to move, or use Arrow Up and Arrow Down"
            {...drag.handle(name)}
          >
            <GripVertical size={16} aria-hidden />
          </button>
        )}
        <button type="button" className="server-row-main" onClick={() => selectServer(name)} aria-pressed={selected}>
          <span className="server-name">{name}</span>
          <span className="badge">{view.config.type}</span>
          <StatusBadge name={name} status={view.status} />
          <span className="server-desc mono" title={describe(view.config)}>
            {describe(view.config)}
          </span>
        </button>
      </div>
      {view.status.state === 'failed' && (
        <div className="server-failure" data-testid={`failure-${name}`}>
          <Ticks text={view.status.message} />
        </div>
      )}
      {pending && (
        <div className="signin-required" data-testid={`signin-required-${name}`} data-opened={pending.opened}>
          <strong>{pending.opened ? 'Waiting for the sign-in' : 'Sign-in required'}</strong>
          <span className="muted">{pending.opened ? 'finish it in the tab that opened' : 'the server asks for OAuth authorization'}</span>
          <span className="spacer" />
          <Button small variant="primary" onClick={doSignIn} busy={busy === 'signin'} data-testid={`signin-${name}`}>
            {pending.opened ? 'Open again' : 'Sign in'}
          </Button>
        </div>
      )}
      {error && (
        <div className="inline-error" role="alert" data-testid={`server-error-${name}`}>
          {error}
        </div>
      )}
      <div className="server-actions">
        {st === 'connected' || st === 'connecting' ? (
          <>
            <Button small onClick={() => act('disconnect')} busy={busy === 'disconnect'} data-testid={`disconnect-${name}`}>
              Disconnect
            </Button>
            <Button small onClick={() => act('reconnect')} busy={busy === 'reconnect'} data-testid={`reconnect-${name}`}>
              Reconnect
            </Button>
          </>
        ) : (
          <Button small variant="primary" onClick={() => act('connect')} busy={busy === 'connect'} data-testid={`connect-${name}`}>
            Connect
          </Button>
        )}
        <Button small variant="ghost" onClick={onEdit} data-testid={`edit-${name}`}>
          Edit
        </Button>
        <Button small variant="ghost" onClick={onClone} data-testid={`clone-${name}`} title="Add a new server with this one's settings (nothing is saved until you add it)">
          Clone
        </Button>
        {confirmDelete ? (
          <>
            <Button small variant="danger" onClick={() => act('delete')} busy={busy === 'delete'} data-testid={`delete-confirm-${name}`}>
              Delete {name}?
            </Button>
            <Button small variant="ghost" onClick={() => setConfirmDelete(false)}>
              Keep
            </Button>
          </>
        ) : (
          <Button small variant="ghost" onClick={() => setConfirmDelete(true)} data-testid={`delete-${name}`}>
            Delete
          </Button>
        )}
      </div>
    </li>
  );
}
