import { describe, expect, it } from 'vitest';
import { isCommandLine, shellWords, splitCommandLine } from './commandLine';

describe('splitCommandLine', () => {
  it('splits a README line into command and arguments', () => {
    expect(splitCommandLine('npx -y @modelcontextprotocol/server-everything stdio')).toEqual({ env: [], command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'] });
  });

  it('keeps quoted words whole, as a shell does', () => {
    expect(splitCommandLine(`node "/My Servers/index.js" --name 'a b' --x=\\"q\\" "say \\"hi\\""`)).toEqual({
      env: [],
      command: 'node',
      args: ['/My Servers/index.js', '--name', 'a b', '--x="q"', 'say "hi"'],
    });
    expect(shellWords(`a""b ''`)).toEqual({ words: ['ab', ''] });
  });

  it('takes leading NAME=value words as the environment', () => {
    expect(splitCommandLine('API_KEY=abc DEBUG= uvx mcp-server-fetch')).toEqual({
      env: [
        { key: 'API_KEY', value: 'abc' },
        { key: 'DEBUG', value: '' },
      ],
      command: 'uvx',
      args: ['mcp-server-fetch'],
    });
  });

  it('joins lines continued with a backslash and drops a prompt sign', () => {
    expect(splitCommandLine('$ docker run -i --rm \\\n  -e TOKEN \\\r\n  mcp/github')).toEqual({ env: [], command: 'docker', args: ['run', '-i', '--rm', '-e', 'TOKEN', 'mcp/github'] });
  });

  it('says what is wrong with a line it cannot split', () => {
    expect(splitCommandLine('node "index.js')).toEqual({ error: 'a double quote (") is not closed' });
    expect(splitCommandLine("node 'index.js")).toEqual({ error: "a single quote (') is not closed" });
    expect(splitCommandLine('A=1')).toEqual({ error: 'there is no command in it' });
  });

  it('tells a command line from a single program name', () => {
    expect(isCommandLine('node index.js')).toBe(true);
    expect(isCommandLine('  /usr/bin/node  ')).toBe(false);
    expect(isCommandLine('"/Program Files/node"')).toBe(false);
  });
});
