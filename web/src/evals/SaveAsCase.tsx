// "Save as eval case" for the Chat page: appends this session (its user turns, and the tool
// calls it made as the expected ones) to a suite in the Evals folder; the rest of the file is
// kept as it was.
import { useState } from 'react';
import { errorMessage } from '../api/client';
import { Button } from '../ui/Button';
import { evalsApi, type SuiteEntry } from './api';

export function SaveAsCase({ sessionId }: { sessionId: string }) {
  const [suites, setSuites] = useState<SuiteEntry[] | null>(null);
  const [suite, setSuite] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const open = () =>
    evalsApi.suites().then(
      (s) => {
        setSuites(s);
        setSuite(s.find((x) => !x.error)?.name ?? '');
        setNote(s.length ? null : 'No suites yet: create one on the Evals page.');
      },
      (e) => setNote(errorMessage(e)),
    );
  const save = () =>
    evalsApi.addCase(suite, sessionId).then(
      (r) => setNote(`Added case ${r.caseId} to ${suite}.`),
      (e) => setNote(errorMessage(e)),
    );
  return (
    <div className="chat-save-case small" data-testid="chat-save-case">
      {suites === null ? (
        <Button small variant="ghost" onClick={open} data-testid="chat-save-case-open">
          Save as eval case
        </Button>
      ) : (
        suites.length > 0 && (
          <>
            <select value={suite} onChange={(e) => setSuite(e.target.value)} aria-label="Suite" data-testid="chat-save-case-suite">
              {suites.map((s) => (
                <option key={s.name} value={s.name}>
                  {s.name}
                </option>
              ))}
            </select>{' '}
            <Button small onClick={save} disabled={!suite} data-testid="chat-save-case-save">
              Add case
            </Button>
          </>
        )
      )}
      {note && (
        <span role="status" data-testid="chat-save-case-note">
          {' '}
          {note}
        </span>
      )}
    </div>
  );
}
