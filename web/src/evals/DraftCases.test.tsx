// "Draft cases with a model": the form's states — what it refuses to start without, the
// request it sends, pending with Cancel (which aborts the request), the added case ids, the
// note when the editor holds unsaved edits, and the server's refusal in its own words.
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ProviderView, ServerView } from '../api/types.gen';
import { fail, fakeApiEachTest, ok } from '../test/fakeApi';
import { renderWithQuery } from '../test/queryHarness';
import { SERVERS_KEY } from '../servers/store';
import { DraftCases, draftCount } from './DraftCases';

const api = fakeApiEachTest();

const PATH = '/api/evals/suites/s.yaml/drafts';

const provider = (id: string, usable: boolean, models: string[], reason: string | null = null): ProviderView => ({
  id,
  kind: 'openai',
  displayName: id,
  usable,
  reason,
  baseUrl: null,
  keyHint: null,
  models,
  custom: false,
});

const server = (name: string, state: 'connected' | 'disconnected') => ({ config: { name }, status: { state } }) as unknown as ServerView;

function open(props: Partial<Parameters<typeof DraftCases>[0]> = {}, servers = [server('demo', 'connected'), server('off', 'disconnected')]) {
  api.on('GET', '/api/llm/providers', ok([provider('openai', true, ['gpt-x']), provider('anthropic', false, [], 'no ANTHROPIC_API_KEY: set it, or add a key in Settings')]));
  api.on('GET', '/api/servers', ok(servers));
  const onAdded = vi.fn();
  const onReload = vi.fn();
  const view = renderWithQuery(<DraftCases suite="s.yaml" unsaved={false} onAdded={onAdded} onReload={onReload} {...props} />, (qc) => qc.setQueryData(SERVERS_KEY, servers));
  fireEvent.click(screen.getByTestId('evals-draft-open'));
  return { ...view, onAdded, onReload };
}

const start = () => screen.getByTestId<HTMLButtonElement>('evals-draft-start');

describe('draftCount', () => {
  it('is a whole number from 1 to 20', () => {
    expect(draftCount(' 5 ')).toBe(5);
    expect(draftCount('20')).toBe(20);
    for (const bad of ['', '0', '21', '2.5', '-1', 'x']) expect(draftCount(bad)).toBeNull();
  });
});

describe('DraftCases', () => {
  it('drafts with the usable model, the count and the connected servers, then shows the ids', async () => {
    const { onAdded } = open();
    await waitFor(() => expect(screen.getByTestId<HTMLSelectElement>('evals-draft-model').value).toBe('openai::gpt-x'));
    // The unusable provider is listed, disabled, with its reason.
    const why = screen.getByText(/anthropic: no ANTHROPIC_API_KEY/);
    expect((why as HTMLOptionElement).disabled).toBe(true);
    expect(screen.getByTestId<HTMLInputElement>('evals-draft-count').value).toBe('5');
    expect(screen.getByTestId<HTMLInputElement>('evals-draft-server-off').disabled).toBe(true);
    expect(screen.getByTestId<HTMLInputElement>('evals-draft-server-demo').checked).toBe(true);

    api.on('POST', PATH, ok({ name: 's.yaml', caseIds: ['add-two', 'echo'] }));
    fireEvent.change(screen.getByTestId('evals-draft-count'), { target: { value: '3' } });
    fireEvent.click(start());
    await waitFor(() => expect(screen.getByTestId('evals-draft-added').textContent).toBe('Added 2 cases to s.yaml: add-two, echo.'));
    expect(api.calls.find((c) => c.path === PATH)?.body).toEqual({ model: 'openai::gpt-x', count: 3, servers: ['demo'] });
    expect(onAdded).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('evals-draft-unsaved')).toBeNull();
  });

  it('does not start without a count from 1 to 20 or a server, and says why', async () => {
    open();
    await waitFor(() => expect(start().disabled).toBe(false));
    fireEvent.change(screen.getByTestId('evals-draft-count'), { target: { value: '25' } });
    expect(start().disabled).toBe(true);
    expect(screen.getByTestId('evals-draft-problem').textContent).toBe('Ask for 1 to 20 cases.');
    fireEvent.change(screen.getByTestId('evals-draft-count'), { target: { value: '2' } });
    fireEvent.click(screen.getByTestId('evals-draft-server-demo'));
    expect(start().disabled).toBe(true);
    expect(screen.getByTestId('evals-draft-problem').textContent).toMatch(/Tick a server/);
  });

  it('says so when no server is connected', async () => {
    open({}, [server('off', 'disconnected')]);
    await waitFor(() => expect(screen.getByTestId('evals-draft-problem').textContent).toMatch(/No server is connected/));
    expect(start().disabled).toBe(true);
  });

  it('Cancel aborts the request under way and says nothing was added', async () => {
    const { onAdded } = open();
    await waitFor(() => expect(start().disabled).toBe(false));
    const fake = globalThis.fetch;
    let signal: AbortSignal | undefined;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) !== PATH) return fake(input, init);
      signal = init?.signal ?? undefined;
      return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    });
    fireEvent.click(start());
    expect(screen.getByTestId('evals-draft-pending').textContent).toBe('Asking openai::gpt-x for 5 cases…');
    expect(start().disabled).toBe(true);
    fireEvent.click(screen.getByTestId('evals-draft-cancel'));
    expect(signal?.aborted).toBe(true);
    await waitFor(() => expect(screen.getByTestId('evals-draft-cancelled').textContent).toBe('Cancelled: nothing was added.'));
    expect(screen.queryByTestId('evals-draft-error')).toBeNull();
    expect(onAdded).not.toHaveBeenCalled();
  });

  it('leaves unsaved edits alone: says the file has the cases and offers to reload', async () => {
    const { onReload } = open({ unsaved: true });
    await waitFor(() => expect(start().disabled).toBe(false));
    api.on('POST', PATH, ok({ name: 's.yaml', caseIds: ['echo'] }));
    fireEvent.click(start());
    await waitFor(() => expect(screen.getByTestId('evals-draft-unsaved').textContent).toMatch(/unsaved edits/));
    fireEvent.click(screen.getByTestId('evals-draft-reload'));
    expect(onReload).toHaveBeenCalledTimes(1);
  });

  it("shows the server's refusal in its words", async () => {
    open();
    await waitFor(() => expect(start().disabled).toBe(false));
    api.on('POST', PATH, fail(400, "openai::gpt-x: the model's reply held no JSON array of cases; try again or another model"));
    fireEvent.click(start());
    await waitFor(() => expect(screen.getByTestId('evals-draft-error').textContent).toBe("openai::gpt-x: the model's reply held no JSON array of cases; try again or another model"));
  });
});
