// The Tasks page's list is a query the event stream keeps current: a `task` event puts the
// task in its server's list without a request, another server's task stays out, and a resync
// fetches the list again.
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { ServerView, TaskView } from '../api/types.gen';
import { SERVERS_KEY } from '../servers/store';
import { fakeApiEachTest, ok } from '../test/fakeApi';
import { renderWithQuery } from '../test/queryHarness';
import { TasksPage } from './TasksPage';

const TASKS = '/api/servers/srv/tasks';
const server = { config: { name: 'srv', type: 'stdio', command: 'x' }, status: { state: 'connected' }, info: null, stderr: [] } as unknown as ServerView;
const task = (taskId: string, status = 'working', on = 'srv'): TaskView => ({ server: on, taskId, flavor: 'extension', status, history: [] });

const api = fakeApiEachTest();

const shown = () => screen.queryAllByTestId(/^task-t/).map((el) => `${el.dataset.testid} ${el.querySelector('[data-testid="task-status"]')?.textContent}`);

describe('TasksPage', () => {
  it('takes task events into the list and fetches it again on resync', async () => {
    api.on('GET', TASKS, ok([task('t1')]), ok([task('t3', 'completed')]));
    const { emit, resync } = renderWithQuery(<TasksPage />, (qc) => qc.setQueryData(SERVERS_KEY, [server]));
    await waitFor(() => expect(shown()).toEqual(['task-t1 working']));

    emit({ type: 'task', task: task('t2') });
    emit({ type: 'task', task: task('t1', 'completed') });
    emit({ type: 'task', task: task('t9', 'working', 'other') });
    await waitFor(() => expect(shown()).toEqual(['task-t1 completed', 'task-t2 working']));
    expect(api.count('GET', TASKS)).toBe(1);

    resync();
    await waitFor(() => expect(shown()).toEqual(['task-t3 completed']));
    expect(api.count('GET', TASKS)).toBe(2);
  });
});
