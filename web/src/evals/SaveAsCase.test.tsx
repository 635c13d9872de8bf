// "Save as eval case" reads the suites when it opens — afresh, even when the Evals page
// cached them — preselects the first that loads, and adds the case to the chosen one.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { fakeApiEachTest, ok } from '../test/fakeApi';
import { renderWithQuery } from '../test/queryHarness';
import { evalsKeys } from './queries';
import { SaveAsCase } from './SaveAsCase';

const api = fakeApiEachTest();

const options = () => Array.from(screen.getByTestId<HTMLSelectElement>('chat-save-case-suite').options).map((o) => o.value);

describe('SaveAsCase', () => {
  it('fetches the suites on opening, even cached ones, and adds the case to the chosen suite', async () => {
    api.on('GET', '/api/evals/suites', ok([{ name: 'broken.yaml', error: 'line 1: bad' }, { name: 'a.yaml', id: 'a' }, { name: 'b.yaml', id: 'b' }]));
    api.on('POST', '/api/evals/suites/b.yaml/cases', ok({ caseId: 'case-3' }));
    renderWithQuery(<SaveAsCase sessionId="s1" />, (qc) => qc.setQueryData(evalsKeys.suites, [{ name: 'a.yaml', id: 'a' }]));
    expect(api.calls).toEqual([]);

    fireEvent.click(screen.getByTestId('chat-save-case-open'));
    await waitFor(() => expect(options()).toEqual(['broken.yaml', 'a.yaml', 'b.yaml']));
    expect(screen.getByTestId<HTMLSelectElement>('chat-save-case-suite').value).toBe('a.yaml');

    fireEvent.change(screen.getByTestId('chat-save-case-suite'), { target: { value: 'b.yaml' } });
    fireEvent.click(screen.getByTestId('chat-save-case-save'));
    await waitFor(() => expect(screen.getByTestId('chat-save-case-note').textContent).toBe(' Added case case-3 to b.yaml.'));
    expect(api.calls.at(-1)).toEqual({ method: 'POST', path: '/api/evals/suites/b.yaml/cases', body: { sessionId: 's1' } });
  });

  it('says so when there are no suites yet', async () => {
    api.on('GET', '/api/evals/suites', ok([]));
    renderWithQuery(<SaveAsCase sessionId="s1" />);
    fireEvent.click(screen.getByTestId('chat-save-case-open'));
    await waitFor(() => expect(screen.getByTestId('chat-save-case-note').textContent).toContain('No suites yet'));
  });
});
