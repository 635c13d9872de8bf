// The servers store as a test sees it: a connected stdio server's view by name, a component
// listing `useServers()` one row per server (its command in `data-command`), and the names
// those rows show.
import { screen } from '@testing-library/react';
import type { ServerView } from '../api/types.gen';
import { useServers } from '../servers/store';

export const serverView = (name: string) => ({ config: { name, type: 'stdio', command: 'x' }, status: { state: 'connected' }, info: null, stderr: [] }) as unknown as ServerView;

export function ServerRows() {
  const { list } = useServers();
  return (
    <ul>
      {(list ?? []).map((v) => (
        <li key={v.config.name} data-testid="row" data-command={(v.config as { command?: string }).command}>
          {v.config.name}
        </li>
      ))}
    </ul>
  );
}

export const rowNames = () => screen.queryAllByTestId('row').map((el) => el.textContent);
