// The Evals page reads through the query cache and refetches what a write changed: a run's
// end (from the run's own stream) refetches the runs list and shows the run; saving a suite
// or the folder refetches the suites, and cases drafted into a suite refetch it (unsaved edits
// kept). The selection is the URL's: a page opened on
// `#/evals/<suite>/<run>` shows both. The code editor (its own chunk, CodeMirror) is a text
// box here; the browser test drives the real one.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { SessionStreamHandlers } from '../api/events';
import { fakeApi, ok, type FakeApi } from '../test/fakeApi';
import { renderWithQuery } from '../test/queryHarness';
import type { EvalRunItem, EvalRunView, EvalStreamEvent } from './api';
import { EvalsPage } from './EvalsPage';
import { evalsKeys } from './queries';
import { setPref } from '../settings/prefs';

// The run's event stream: the test says what arrives on it.
const streams = vi.hoisted(() => new Map<string, SessionStreamHandlers<EvalStreamEvent>>());
vi.mock('../api/events', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/events')>()),
  openSessionStream: (path: string, h: SessionStreamHandlers<EvalStreamEvent>) => {
    streams.set(path, h);
    return () => streams.delete(path);
  },
}));

const item = (id: string): EvalRunItem => ({ id, suiteId: 'greet', suiteHash: 'h', title: 'Greeting', status: 'finished', hostHash: 'abcdef0123456789', startedMs: 1_700_000_000_000, finishedMs: 1_700_000_000_500, passRate: 1, exitCode: 0, kind: { kind: 'full' } });
// Only what the run view reads is filled in.
const noSpend = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: null };
const shownRun = (id: string) => ({ run: item(id), record: { iterations: [] }, summary: { cells: [], planned: 1, finished: 1, passes: 1, passRate: 1, inputTokens: 0, outputTokens: 0, costUsd: null, unpriced: 0, judge: noSpend, simulatedUser: noSpend }, gates: null }) as unknown as EvalRunView;

vi.mock('./YamlEditor', () => ({
  default: ({ value, onChange }: { value: string; onChange: (t: string) => void }) => <textarea data-testid="evals-editor" value={value} onChange={(e) => onChange(e.target.value)} />,
}));

let api: FakeApi;
beforeEach(() => {
  window.location.hash = '#/evals';
  api = fakeApi();
  // Each test starts with no remembered selection (`#/evals` alone would bring it back).
  setPref('evalsSelection', []);
  streams.clear();
  api.on('GET', '/api/evals/folder', ok({ folder: '/suites' }));
  api.on('GET', '/api/evals/trend?suiteId=greet', ok([]));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const runIds = () => screen.queryAllByTestId('evals-run-item').map((b) => b.dataset.run);

describe('EvalsPage', () => {
  it("refetches the runs list when a run it started ends, and shows that run", async () => {
    api.on('GET', '/api/evals/suites', ok([{ name: 'greet.yaml', id: 'greet', title: 'Greeting' }]));
    api.on('GET', '/api/evals/suites/greet.yaml', ok({ name: 'greet.yaml', text: 'version: 1' }));
    api.on('GET', '/api/evals/runs', ok([]), ok([item('r1')]));
    api.on('GET', '/api/evals/suites/greet.yaml/launch', ok({ list: { items: [], hash: 'h' }, trusted: true }));
    api.on('POST', '/api/evals/runs', ok({ runId: 'r1' }));
    api.on('GET', '/api/evals/runs/r1', ok(shownRun('r1')));
    renderWithQuery(<EvalsPage />);

    fireEvent.click(await screen.findByTestId('evals-suite-greet.yaml'));
    fireEvent.click(await screen.findByTestId('evals-run'));
    await waitFor(() => expect(streams.has('/api/evals/runs/r1/events')).toBe(true));
    expect(runIds()).toEqual([]);
    act(() => streams.get('/api/evals/runs/r1/events')?.onEvent({ kind: 'ended', status: 'finished', exitCode: 0 }));

    await waitFor(() => expect(runIds()).toEqual(['r1']));
    expect((await screen.findByTestId('evals-run-view')).dataset.run).toBe('r1');
    expect(api.count('GET', '/api/evals/runs')).toBe(2);
    expect(api.count('GET', '/api/evals/trend?suiteId=greet')).toBe(2);
  });

  it('asks before a run that starts commands, and starts it with the list agreed to', async () => {
    const list = { items: [{ name: 'demo', kind: 'suiteCommand', detail: 'npx -y some-server' }], hash: 'abc' };
    api.on('GET', '/api/evals/suites', ok([{ name: 'greet.yaml', id: 'greet', title: 'Greeting' }]));
    api.on('GET', '/api/evals/suites/greet.yaml', ok({ name: 'greet.yaml', text: 'version: 1' }));
    api.on('GET', '/api/evals/runs', ok([]));
    api.on('GET', '/api/evals/suites/greet.yaml/launch', ok({ list, trusted: false }));
    api.on('POST', '/api/evals/runs', ok({ runId: 'r2' }));
    renderWithQuery(<EvalsPage />);

    fireEvent.click(await screen.findByTestId('evals-suite-greet.yaml'));
    fireEvent.click(await screen.findByTestId('evals-run'));
    const item = await screen.findByTestId('evals-launch-item');
    expect(item.textContent).toContain('npx -y some-server');
    expect(api.count('POST', '/api/evals/runs')).toBe(0);
    fireEvent.click(screen.getByTestId('evals-launch-agree'));
    await waitFor(() => expect(api.count('POST', '/api/evals/runs')).toBe(1));
    expect(api.calls.find((c) => c.method === 'POST' && c.path === '/api/evals/runs')?.body).toMatchObject({ suite: 'greet.yaml', confirm: 'abc' });
  });

  it('refetches the suites after a new suite is saved', async () => {
    api.on('GET', '/api/evals/suites', ok([]), ok([{ name: 'new-suite.yaml', id: 'my-suite' }]));
    api.on('GET', '/api/evals/runs', ok([]));
    api.on('PUT', '/api/evals/suites/new-suite.yaml', ok({ name: 'new-suite.yaml' }));
    api.on('GET', '/api/evals/suites/new-suite.yaml', ok({ name: 'new-suite.yaml', text: 'id: my-suite' }));
    renderWithQuery(<EvalsPage />);

    await screen.findByText('No .yaml, .yml or .json files in the folder yet.');
    fireEvent.click(screen.getByTestId('evals-new-suite'));
    fireEvent.click(await screen.findByTestId('evals-save'));
    await screen.findByTestId('evals-suite-new-suite.yaml');
    expect(api.count('GET', '/api/evals/suites')).toBe(2);
    // The saved suite opens as the stored file.
    await waitFor(() => expect(screen.getByTestId<HTMLTextAreaElement>('evals-editor').value).toBe('id: my-suite'));
  });

  it('refetches the suites when the folder changes, and keeps the folder as the server answered', async () => {
    api.on('GET', '/api/evals/runs', ok([]));
    api.on('PUT', '/api/evals/folder', ok({ folder: '/home/me/suites' }));
    api.on('GET', '/api/evals/suites', ok([{ name: 'old.yaml', id: 'old' }]), ok([{ name: 'a.yaml', id: 'a' }]));
    renderWithQuery(<EvalsPage />);

    await screen.findByTestId('evals-suite-old.yaml');
    const input = screen.getByTestId<HTMLInputElement>('evals-folder');
    expect(input.value).toBe('/suites');
    fireEvent.change(input, { target: { value: '/home/me/suites/' } });
    fireEvent.click(screen.getByTestId('evals-folder-save'));
    await screen.findByTestId('evals-suite-a.yaml');
    expect(input.value).toBe('/home/me/suites');
    expect(api.calls.find((c) => c.method === 'PUT' && c.path === '/api/evals/folder')?.body).toEqual({ folder: '/home/me/suites/' });
  });

  it('opens on the suite and run its URL names (a reload keeps both), and says the verdict in words', async () => {
    window.location.hash = '#/evals/greet.yaml/r1';
    api.on('GET', '/api/evals/suites', ok([{ name: 'greet.yaml', id: 'greet', title: 'Greeting' }]));
    api.on('GET', '/api/evals/suites/greet.yaml', ok({ name: 'greet.yaml', text: 'version: 1' }));
    api.on('GET', '/api/evals/runs', ok([item('r1')]));
    api.on('GET', '/api/evals/runs/r1', ok(shownRun('r1')));
    renderWithQuery(<EvalsPage />);

    expect((await screen.findByTestId('evals-run-view')).dataset.run).toBe('r1');
    await waitFor(() => expect(screen.getByTestId<HTMLTextAreaElement>('evals-editor').value).toBe('version: 1'));
    expect(screen.getByTestId('evals-suite-greet.yaml').className).toBe('active');
    expect(screen.getByTestId('evals-run-item').textContent).toContain('passed');
    expect(screen.getByTestId('evals-run-item').textContent).not.toMatch(/exit/);
    // Picking another run changes the URL, the suite stays.
    fireEvent.click(screen.getByTestId('evals-run-item'));
    expect(window.location.hash).toBe('#/evals/greet.yaml/r1');
    fireEvent.click(screen.getByTestId('evals-new-suite'));
    expect(window.location.hash).toBe('#/evals/new/r1');
    await waitFor(() => expect(screen.getByTestId<HTMLInputElement>('evals-file-name').value).toBe('new-suite.yaml'));
  });

  it('brings the last selection back when opened as #/evals (the nav link), and forgets a pruned run', async () => {
    window.location.hash = '#/evals/greet.yaml/r1';
    api.on('GET', '/api/evals/suites', ok([{ name: 'greet.yaml', id: 'greet', title: 'Greeting' }]));
    api.on('GET', '/api/evals/suites/greet.yaml', ok({ name: 'greet.yaml', text: 'version: 1' }));
    api.on('GET', '/api/evals/runs', ok([item('r1')]));
    api.on('GET', '/api/evals/runs/r1', ok(shownRun('r1')));
    const first = renderWithQuery(<EvalsPage />);
    await screen.findByTestId('evals-run-view');
    first.unmount();
    window.location.hash = '#/servers';
    window.location.hash = '#/evals';
    renderWithQuery(<EvalsPage />);
    expect((await screen.findByTestId('evals-run-view')).dataset.run).toBe('r1');
    expect(window.location.hash).toBe('#/evals/greet.yaml/r1');
    // Pruning the shown run shows the suite alone.
    api.on('POST', '/api/evals/prune', ok({ deleted: ['r1'], dryRun: true, bytesBefore: 1, bytesAfter: 1 }), ok({ deleted: ['r1'], dryRun: false, bytesBefore: 2, bytesAfter: 1 }));
    fireEvent.click(screen.getByTestId('evals-prune-open'));
    fireEvent.click(screen.getByTestId('evals-prune-preview'));
    fireEvent.click(await screen.findByTestId('evals-prune-confirm'));
    await waitFor(() => expect(window.location.hash).toBe('#/evals/greet.yaml'));
  });

  it('asks for no suites before a folder is set', async () => {
    api.on('GET', '/api/evals/folder', ok({ folder: null }));
    api.on('GET', '/api/evals/runs', ok([]));
    const { qc } = renderWithQuery(<EvalsPage />);
    await waitFor(() => expect(qc.getQueryState(evalsKeys.folder)?.status).toBe('success'));
    expect(screen.getByTestId('evals-new-suite')).toHaveProperty('disabled', true);
    expect(api.count('GET', '/api/evals/suites')).toBe(0);
  });

  it('shows the file again after cases are drafted into it, but keeps unsaved edits and offers to reload', async () => {
    api.on('GET', '/api/evals/suites', ok([{ name: 'greet.yaml', id: 'greet', title: 'Greeting' }]));
    api.on('GET', '/api/evals/runs', ok([]));
    api.on('GET', '/api/llm/providers', ok([{ id: 'openai', kind: 'openai', displayName: 'OpenAI', usable: true, reason: null, baseUrl: null, keyHint: null, models: ['gpt-x'], custom: false }]));
    api.on('GET', '/api/servers', ok([{ config: { name: 'demo' }, status: { state: 'connected' } }]));
    api.on('GET', '/api/evals/suites/greet.yaml', ok({ name: 'greet.yaml', text: 'v1' }), ok({ name: 'greet.yaml', text: 'v1 a' }), ok({ name: 'greet.yaml', text: 'v1 a b' }));
    api.on('POST', '/api/evals/suites/greet.yaml/drafts', ok({ name: 'greet.yaml', caseIds: ['a'] }), ok({ name: 'greet.yaml', caseIds: ['b'] }));
    window.location.hash = '#/evals/greet.yaml';
    renderWithQuery(<EvalsPage />);
    const editor = () => screen.getByTestId<HTMLTextAreaElement>('evals-editor');
    await waitFor(() => expect(editor().value).toBe('v1'));

    fireEvent.click(screen.getByTestId('evals-draft-open'));
    await waitFor(() => expect(screen.getByTestId<HTMLButtonElement>('evals-draft-start').disabled).toBe(false));
    fireEvent.click(screen.getByTestId('evals-draft-start'));
    await waitFor(() => expect(editor().value).toBe('v1 a'));
    expect(screen.queryByTestId('evals-draft-unsaved')).toBeNull();

    fireEvent.change(editor(), { target: { value: 'v1 a mine' } });
    fireEvent.click(screen.getByTestId('evals-draft-start'));
    await screen.findByTestId('evals-draft-unsaved');
    expect(api.count('GET', '/api/evals/suites/greet.yaml')).toBe(3);
    expect(editor().value).toBe('v1 a mine');
    fireEvent.click(screen.getByTestId('evals-draft-reload'));
    expect(editor().value).toBe('v1 a b');
    expect(screen.queryByTestId('evals-draft-unsaved')).toBeNull();
  });
});
