// Saved scenarios are a query: saving one or deleting one fetches the list again, and the
// list shows only this server's and tool's scenarios.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { AppScenario } from '../api/types.gen';
import { fakeApiEachTest, ok } from '../test/fakeApi';
import { renderWithQuery } from '../test/queryHarness';
import type { Emulation } from './devices';
import { Scenarios } from './Scenarios';

const LIST = '/api/app-scenarios';
const scenario = (id: string, name: string, tool = 'show'): AppScenario => ({ id, name, server: 'srv', tool, arguments: {}, conditions: {}, createdMs: 1, updatedMs: 1 });
const current = { server: 'srv', tool: 'show', arguments: () => ({ n: 1 }), conditions: {} as Emulation };

const api = fakeApiEachTest();

const names = () => screen.queryAllByTestId('pg-scenario').map((el) => el.dataset.name);

describe('Scenarios', () => {
  it('fetches the list again after a save and after a delete', async () => {
    const other = scenario('s0', 'other tool', 'list');
    const dark = scenario('s1', 'dark');
    api.on('GET', LIST, ok([other]), ok([other, dark]), ok([other]));
    api.on('POST', LIST, ok(dark));
    api.on('DELETE', `${LIST}/s1`, ok());
    renderWithQuery(<Scenarios current={current} onLoad={() => undefined} />);
    await screen.findByText('None saved for this tool.');

    fireEvent.change(screen.getByTestId('pg-scenario-name'), { target: { value: ' dark ' } });
    fireEvent.click(screen.getByTestId('pg-scenario-save'));
    await waitFor(() => expect(names()).toEqual(['dark']));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ name: 'dark', server: 'srv', tool: 'show', arguments: { n: 1 } });
    expect(screen.getByTestId<HTMLInputElement>('pg-scenario-name').value).toBe('');

    fireEvent.click(screen.getByTestId('pg-scenario-delete'));
    await screen.findByText('None saved for this tool.');
    expect(api.count('GET', LIST)).toBe(3);
  });

  it('saves over the scenario of the same name', async () => {
    api.on('GET', LIST, ok([scenario('s1', 'dark')]));
    api.on('PUT', `${LIST}/s1`, ok(scenario('s1', 'dark')));
    renderWithQuery(<Scenarios current={current} onLoad={() => undefined} />);
    await waitFor(() => expect(names()).toEqual(['dark']));
    fireEvent.change(screen.getByTestId('pg-scenario-name'), { target: { value: 'dark' } });
    fireEvent.click(screen.getByTestId('pg-scenario-save'));
    await waitFor(() => expect(api.count('GET', LIST)).toBe(2));
    expect(api.count('PUT', `${LIST}/s1`)).toBe(1);
  });
});
