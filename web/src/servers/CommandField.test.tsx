// A whole command line pasted into Command lands split in the fields (Undo puts it back); one
// typed by hand is flagged with the split it would make, applied only on request.
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { CommandField } from './CommandField';
import { emptyForm, type ConfigForm } from './configForm';

let current: ConfigForm = emptyForm;
function Harness({ start }: { start: Partial<ConfigForm> }) {
  const [f, setF] = useState<ConfigForm>({ ...emptyForm, ...start });
  current = f;
  return <CommandField f={f} set={(p) => setF((x) => ({ ...x, ...p }))} error={null} />;
}

const input = () => screen.getByTestId('server-form-command') as HTMLInputElement;

describe('CommandField', () => {
  it('splits a pasted command line into environment, command and arguments, and can undo it', () => {
    render(<Harness start={{ args: 'extra' }} />);
    fireEvent.paste(input(), { clipboardData: { getData: () => 'TOKEN=x node "/srv/my server/index.js" stdio' } });
    expect(current.command).toBe('node');
    expect(current.args).toBe('/srv/my server/index.js\nstdio\nextra');
    expect(current.env).toEqual([{ key: 'TOKEN', value: 'x' }]);
    expect(screen.getByTestId('server-form-command-split').textContent).toContain('node with 2 arguments, 1 environment variable');
    fireEvent.click(screen.getByTestId('server-form-command-unsplit'));
    expect(current).toMatchObject({ command: '', args: 'extra', env: [] });
  });

  it('leaves a pasted program name alone', () => {
    render(<Harness start={{}} />);
    fireEvent.paste(input(), { clipboardData: { getData: () => '/usr/bin/node' } });
    expect(screen.queryByTestId('server-form-command-split')).toBeNull();
  });

  it('flags a typed command line and splits it on request', () => {
    render(<Harness start={{}} />);
    fireEvent.change(input(), { target: { value: 'npx -y @modelcontextprotocol/server-everything' } });
    expect(current.command).toBe('npx -y @modelcontextprotocol/server-everything');
    fireEvent.click(screen.getByTestId('server-form-command-apply'));
    expect(current).toMatchObject({ command: 'npx', args: '-y\n@modelcontextprotocol/server-everything' });
    expect(screen.queryByTestId('server-form-command-line')).toBeNull();
  });

  it('says why a typed line cannot be split', () => {
    render(<Harness start={{ command: 'node "index.js' }} />);
    expect(screen.getByTestId('server-form-command-line').textContent).toContain('a double quote (") is not closed');
  });
});
