// Renders a component the way the shell does for server state: inside the app's query client
// (`createQueryClient`) with the event stream's invalidation mounted (`useQueryInvalidation`),
// the stream itself replaced by one the test drives (`emit`, `resync`). Tests only.
import { act, render } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { events } from '../api/events';
import { createQueryClient, useQueryInvalidation } from '../api/queries';
import type { ServerEvent } from '../api/types.gen';

function Invalidation() {
  useQueryInvalidation();
  return null;
}

/** Takes the host event stream over: listeners subscribe as usual, the test sends the events. */
function fakeEvents() {
  const server = new Set<(e: ServerEvent) => void>();
  const resync = new Set<() => void>();
  vi.spyOn(events, 'onServerEvent').mockImplementation((l) => {
    server.add(l);
    return () => server.delete(l);
  });
  vi.spyOn(events, 'onResync').mockImplementation((l) => {
    resync.add(l);
    return () => resync.delete(l);
  });
  return {
    emit: (e: ServerEvent) => act(() => server.forEach((l) => l(e))),
    resync: () => act(() => resync.forEach((l) => l())),
  };
}

/** Renders `ui` in a fresh query client (`seed` fills it first); `rerender` keeps that client. */
export function renderWithQuery(ui: ReactNode, seed?: (qc: QueryClient) => void) {
  const stream = fakeEvents();
  const qc = createQueryClient();
  seed?.(qc);
  const wrap = (node: ReactNode) => (
    <QueryClientProvider client={qc}>
      <Invalidation />
      {node}
    </QueryClientProvider>
  );
  const view = render(wrap(ui));
  return { ...view, ...stream, qc, rerender: (node: ReactNode) => view.rerender(wrap(node)) };
}
