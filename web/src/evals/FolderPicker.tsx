// The suites folder picker: directories under the person's home (the server lists nothing
// outside it), walked by clicking, with how many suite files each holds; "Use this folder" sets
// it, "Create a starter suite here" sets it and saves a starter suite that loads (named so
// nothing is overwritten), then opens it.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ChevronRight, Folder, Home } from 'lucide-react';
import { errorMessage } from '../api/client';
import { useServers } from '../servers/store';
import { Button } from '../ui/Button';
import { Modal } from '../ui/Modal';
import { Loading } from '../ui/Spinner';
import { evalsApi, type DirListing } from './api';
import { useCreateStarter, useSetFolder } from './queries';

export function FolderPicker({ start, onClose, onStarter }: { start: string | null; onClose: () => void; onStarter: (name: string) => void }) {
  const [path, setPath] = useState<string | null>(start);
  const dirs = useQuery({ queryKey: ['evals', 'dirs', path], queryFn: () => evalsApi.dirs(path), retry: false });
  const setFolder = useSetFolder();
  const starter = useCreateStarter();
  const servers = useServers().list ?? [];
  const here = dirs.data;
  const failure = setFolder.error ?? starter.error ?? dirs.error;
  const busy = setFolder.isPending || starter.isPending;
  const footer = here && (
    <>
      <span className="muted small" data-testid="evals-picker-count">
        {here.suites === 0 ? 'No suite files here' : `${here.suites} suite file${here.suites === 1 ? '' : 's'} here`}
      </span>
      <span className="spacer" />
      <Button
        small
        disabled={busy}
        onClick={() => starter.mutate({ folder: here.path, servers: servers.map((s) => s.config.name) }, { onSuccess: (name) => (onStarter(name), onClose()) })}
        data-testid="evals-picker-starter"
      >
        Create a starter suite here
      </Button>
      <Button small variant="primary" disabled={busy} onClick={() => setFolder.mutate(here.path, { onSuccess: onClose })} data-testid="evals-picker-use">
        Use this folder
      </Button>
    </>
  );
  return (
    <Modal title="Choose a suites folder" onCancel={onClose} testId="evals-picker" footer={footer} wide>
      {here ? <Crumbs listing={here} onGo={setPath} /> : null}
      {!here && !dirs.error && <Loading />}
      {here && (
        <ul className="evals-dirs" data-testid="evals-picker-dirs">
          {here.dirs.length === 0 && <li className="muted small">No folders inside.</li>}
          {here.dirs.map((d) => (
            <li key={d}>
              <button type="button" className="linkish" onClick={() => setPath(`${here.path}/${d}`)} data-testid="evals-picker-dir" data-name={d}>
                <Folder size={14} aria-hidden="true" /> {d}
              </button>
            </li>
          ))}
          {here.truncated && <li className="muted small">More folders than shown: type the path instead.</li>}
        </ul>
      )}
      {failure && (
        <div className="inline-error" role="alert" data-testid="evals-picker-error">
          {errorMessage(failure)}
        </div>
      )}
      {dirs.error && path !== null && (
        <Button small onClick={() => setPath(null)} data-testid="evals-picker-home">
          <Home size={14} aria-hidden="true" /> Your home folder
        </Button>
      )}
    </Modal>
  );
}

/** The path from the home down, each step a link back up. */
function Crumbs({ listing, onGo }: { listing: DirListing; onGo: (path: string | null) => void }) {
  const rest = listing.path.slice(listing.home.length).split('/').filter(Boolean);
  return (
    <nav className="evals-crumbs" aria-label="Folder" data-testid="evals-picker-path" data-path={listing.path}>
      <button type="button" className="linkish" onClick={() => onGo(null)} title={listing.home}>
        <Home size={14} aria-hidden="true" /> Home
      </button>
      {rest.map((seg, i) => (
        <span key={i}>
          <ChevronRight size={12} aria-hidden="true" />
          <button type="button" className="linkish" onClick={() => onGo(`${listing.home}/${rest.slice(0, i + 1).join('/')}`)}>
            {seg}
          </button>
        </span>
      ))}
    </nav>
  );
}
