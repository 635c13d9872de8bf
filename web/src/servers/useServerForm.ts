// The add/edit server form's state: the fields, their errors (editing a field clears its
// error), and saving — checked by `configForm.ts`, then added (connecting now or not) or
// updated through the API, selected, and the form closed; a refusal stays on the form. An
// edit refetches the server's sign-in status: credentials are kept per server and URL, and
// the OAuth settings decide whether mcplab signs in at all. Saving a server that failed, or a
// changed one that is connected, connects it again with the new settings (the row shows how
// that went). `template` (Clone) fills a new server's form from another's config; nothing is
// saved until Add. Must not render.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, errorMessage } from '../api/client';
import type { ServerConfig } from '../api/types.gen';
import { configToForm, emptyForm, formToConfig, type ConfigForm } from './configForm';
import { invalidateOAuthStatus } from './oauthStatus';
import { addServerView, selectServer, upsertServer, useServer } from './store';

export function useServerForm(existing: ServerConfig | undefined, onClose: () => void, template?: ServerConfig) {
  const qc = useQueryClient();
  const [f, setF] = useState<ConfigForm>(() => {
    const from = existing ?? template;
    return from ? configToForm(from) : emptyForm;
  });
  const [errors, setErrors] = useState<Partial<Record<keyof ConfigForm, string>>>({});
  const [busy, setBusy] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [connectNow, setConnectNow] = useState(true);
  const state = useServer(existing?.name ?? null)?.status.state;
  // Editing a field clears its error: a message stays only while it is still true.
  const set = (p: Partial<ConfigForm>) => {
    setF((x) => ({ ...x, ...p }));
    setErrors((e) => {
      const touched = Object.keys(p).filter((k) => k in e);
      if (!touched.length) return e;
      const next = { ...e };
      for (const k of touched) delete next[k as keyof ConfigForm];
      return next;
    });
  };

  const save = async () => {
    const r = formToConfig(f);
    if ('errors' in r) {
      setErrors(r.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    setSubmitError(null);
    try {
      if (existing) {
        upsertServer(await api.updateServer(existing.name, r.config), existing.name);
        void invalidateOAuthStatus(qc, r.config.name);
        const changed = JSON.stringify(existing) !== JSON.stringify(r.config);
        if (state === 'failed' || (state === 'connected' && changed)) reconnect(r.config.name, state === 'connected' && existing.name === r.config.name);
      } else addServerView(await api.addServer(r.config, connectNow));
      selectServer(r.config.name);
      onClose();
    } catch (e) {
      setSubmitError(errorMessage(e));
      setBusy(false);
    }
  };

  return { f, set, errors, busy, submitError, connectNow, setConnectNow, save };
}

/** Connects a saved server again in the background; a failure shows on its row (status event). */
function reconnect(name: string, wasConnected: boolean): void {
  (wasConnected ? api.reconnect(name) : api.connect(name)).then(
    (view) => upsertServer(view),
    () => undefined,
  );
}
