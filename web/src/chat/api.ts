// The chat part of the API beyond the shared client: starting a turn (a retry names the turn
// it replaces) and checking a HostConfig file (JSON or YAML) on the server, which knows the
// rules and gives back the canonical form and hash.
import { request } from '../api/client';
import type { HostConfigView, TurnRequest } from '../api/types.gen';

const ses = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

export const chatApi = {
  /** 202 once accepted; posting the same `turnId` again is harmless. 409: another turn runs. */
  startTurn: (id: string, body: TurnRequest) => request<void>('POST', `${ses(id)}/turns`, body),
  parseHostConfig: (text: string) => request<HostConfigView>('POST', '/api/host-config/parse', { text }),
};
