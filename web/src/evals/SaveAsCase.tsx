// "Save as eval case" for the Chat page: appends this session (its user turns, and the tool
// calls it made as the expected ones) to a suite in the Evals folder; the rest of the file is
// kept as it was. The suites are the Evals page's `['evals', 'suites']` query, fetched afresh
// when the picker opens; adding a case is a mutation.
import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ListPlus } from 'lucide-react';
import { errorMessage } from '../api/client';
import { Button } from '../ui/Button';
import { evalsApi } from './api';
import { evalsKeys } from './queries';

export function SaveAsCase({ sessionId }: { sessionId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="chat-save-case small" data-testid="chat-save-case">
      {open ? <CasePicker sessionId={sessionId} /> : <OpenButton onClick={() => setOpen(true)} />}
    </div>
  );
}

function OpenButton({ onClick }: { onClick: () => void }) {
  return (
    <Button small onClick={onClick} data-testid="chat-save-case-open" title="Add this conversation to an eval suite as a case">
      <ListPlus size={14} aria-hidden="true" />
      Save as eval case
    </Button>
  );
}

/** The suite to add the case to (the first that loads, at first) and Add case. */
function CasePicker({ sessionId }: { sessionId: string }) {
  const q = useQuery({ queryKey: evalsKeys.suites, queryFn: evalsApi.suites, refetchOnMount: 'always' });
  const suites = q.data ?? null;
  const [chosen, setChosen] = useState<string | null>(null);
  const suite = chosen ?? suites?.find((x) => !x.error)?.name ?? '';
  const add = useMutation({ mutationFn: (to: string) => evalsApi.addCase(to, sessionId) });
  const failure = add.error ?? q.error;
  let note: string | null = null;
  if (add.data) note = `Added case ${add.data.caseId} to ${add.variables}.`;
  else if (failure) note = errorMessage(failure);
  else if (suites?.length === 0) note = 'No suites yet: create one on the Evals page.';
  return (
    <>
      {suites === null ? (
        <OpenButton onClick={() => void q.refetch()} />
      ) : (
        suites.length > 0 && (
          <>
            <select value={suite} onChange={(e) => setChosen(e.target.value)} aria-label="Suite" data-testid="chat-save-case-suite">
              {suites.map((s) => (
                <option key={s.name} value={s.name}>
                  {s.name}
                </option>
              ))}
            </select>{' '}
            <Button small onClick={() => add.mutate(suite)} disabled={!suite} data-testid="chat-save-case-save">
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
    </>
  );
}
