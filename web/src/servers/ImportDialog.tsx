// Import servers from an `mcpServers` document: a file or pasted JSON. Like Add server, the
// imported servers connect at once unless "Connect them now" is unticked (in the background:
// each row shows how its connection went).
import { useState } from 'react';
import { api, errorMessage } from '../api/client';
import type { ImportResult } from '../api/types.gen';
import { Button } from '../ui/Button';
import { Modal } from '../ui/Modal';
import { Ticks } from '../ui/Ticks';
import { reloadServers, upsertServer } from './store';

const EXAMPLE = `{
  "mcpServers": {
    "everything": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"] },
    "remote": { "type": "http", "url": "http://127.0.0.1:3001/mcp" }
  }
}`;

export function ImportDialog({ onClose }: { onClose: () => void }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [connectNow, setConnectNow] = useState(true);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    try {
      setText(await file.text());
    } catch (e) {
      setError(`Could not read ${file.name}: ${errorMessage(e)}`);
    }
  };

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      JSON.parse(text);
    } catch (e) {
      setError(`Not valid JSON: ${errorMessage(e)}`);
      setBusy(false);
      return;
    }
    try {
      const r = await api.importServers(text);
      setResult(r);
      await reloadServers();
      if (connectNow) for (const name of [...r.added, ...r.replaced]) api.connect(name).then(upsertServer, () => undefined);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title="Import servers"
      testId="import-dialog"
      onCancel={onClose}
      footer={
        result ? (
          <Button variant="primary" onClick={onClose} data-testid="import-done">
            Done
          </Button>
        ) : (
          <>
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button variant="primary" onClick={submit} busy={busy} disabled={!text.trim()} data-testid="import-submit">
              Import
            </Button>
          </>
        )
      }
    >
      {result ? (
        <div data-testid="import-result">
          <p>
            Added {result.added.length}: <span className="mono">{result.added.join(', ') || '—'}</span>
          </p>
          <p>
            Replaced {result.replaced.length}: <span className="mono">{result.replaced.join(', ') || '—'}</span>
          </p>
          {result.warnings.length > 0 && (
            <ul className="small" data-testid="import-warnings">
              {result.warnings.map((w) => (
                <li key={w}>
                  <Ticks text={w} />
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : (
        <>
          <p className="small muted">
            An <code>mcpServers</code> file as Claude Desktop, Cursor or VS Code write it. Servers with the same name are replaced.
          </p>
          <label className="field">
            <span className="field-label">From a file</span>
            <input type="file" accept=".json,application/json" onChange={(e) => void pick(e.target.files?.[0])} data-testid="import-file" />
          </label>
          <label className="field">
            <span className="field-label">Or paste JSON</span>
            <textarea rows={10} className="mono" value={text} placeholder={EXAMPLE} onChange={(e) => setText(e.target.value)} spellCheck={false} data-autofocus data-testid="import-text" />
          </label>
          <label className="check" data-testid="import-connect">
            <input type="checkbox" checked={connectNow} onChange={(e) => setConnectNow(e.target.checked)} />
            Connect them now
          </label>
        </>
      )}
      {error && (
        <div className="inline-error" role="alert" data-testid="import-error">
          {error}
        </div>
      )}
    </Modal>
  );
}
