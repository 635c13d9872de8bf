// One user action at a time with its busy flag and its error message: `act(f)` runs `f`, keeps
// `busy` true while it runs and puts a failure into `error` (cleared when the next one starts).
import { useCallback, useState } from 'react';
import { errorMessage } from '../api/client';

export function useAction(): { busy: boolean; error: string | null; act: (f: () => Promise<void>) => Promise<void> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = useCallback(async (f: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, act };
}
