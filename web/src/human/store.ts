// Server-initiated requests waiting on the person at the keyboard (elicitation, sampling),
// oldest first. Loaded from `/api/human`, kept current by humanRequested/humanResolved.
import { useState } from 'react';
import { api, errorMessage } from '../api/client';
import { events } from '../api/events';
import type { HumanAnswer, HumanRequest, ServerEvent } from '../api/types.gen';
import { createStore, useStore } from '../ui/store';

export interface PendingHuman {
  request: HumanRequest;
  /** When this page learned of it, to show the time left. */
  receivedAt: number;
}

export const humanStore = createStore<PendingHuman[]>([]);

function add(reqs: HumanRequest[]): void {
  humanStore.set((prev) => {
    const known = new Set(prev.map((p) => p.request.id));
    const fresh = reqs.filter((r) => !known.has(r.id)).map((request) => ({ request, receivedAt: Date.now() }));
    return fresh.length ? [...prev, ...fresh].sort((a, b) => a.request.id - b.request.id) : prev;
  });
}

export function removeHuman(id: number): void {
  humanStore.set((prev) => (prev.some((p) => p.request.id === id) ? prev.filter((p) => p.request.id !== id) : prev));
}

export async function reloadHuman(): Promise<void> {
  try {
    const list = await api.human();
    humanStore.set((prev) => {
      const ids = new Set(list.map((r) => r.id));
      return prev.filter((p) => ids.has(p.request.id));
    });
    add(list);
  } catch {
    /* the connection banner reports an unreachable server */
  }
}

export async function answerHuman(id: number, answer: HumanAnswer): Promise<void> {
  try {
    await api.answerHuman(id, answer);
  } finally {
    // Answered, or no longer pending (404): either way it leaves the queue.
    removeHuman(id);
  }
}

/**
 * A dialog's answer to request `id`: `send` answers it; `busy` from then on (the dialog goes
 * with the request), `error` when the answer failed (and `busy` again false).
 */
export function useHumanAnswer(id: number): { busy: boolean; error: string | null; send: (answer: HumanAnswer) => Promise<void> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (answer: HumanAnswer) => {
    setBusy(true);
    setError(null);
    try {
      await answerHuman(id, answer);
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  return { busy, error, send };
}

function onEvent(e: ServerEvent): void {
  if (e.type === 'humanRequested') add([e.request]);
  else if (e.type === 'humanResolved') removeHuman(e.id);
}

let started = false;
export function startHumanStore(): void {
  if (started) return;
  started = true;
  events.onServerEvent(onEvent);
  events.onResync(() => void reloadHuman());
  void reloadHuman();
}

export function useHumanQueue(): PendingHuman[] {
  return useStore(humanStore);
}
