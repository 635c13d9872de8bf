// The stdio form's Command field. READMEs give whole command lines; pasted into Command, one is
// split like a shell would (environment, command, arguments) into the form's fields at once,
// with a note saying so and Undo. A line typed by hand is left alone but flagged, with the
// split it would make and a button to apply it: the fields show the split before anything is
// saved.
import { useId, useState, type ClipboardEvent, type ReactNode } from 'react';
import { Button } from '../ui/Button';
import type { ConfigForm } from './configForm';
import { isCommandLine, splitCommandLine, type SplitLine } from './commandLine';

type Fields = Pick<ConfigForm, 'command' | 'args' | 'env'>;

/** The form's fields with `line` split into them (its arguments before any already given). */
function applied(f: Fields, line: SplitLine): Fields {
  const env = [...f.env.filter((p) => !line.env.some((e) => e.key === p.key)), ...line.env];
  const args = [...line.args, ...f.args.split('\n').filter((a) => a !== '')].join('\n');
  return { command: line.command, args, env };
}

function describe(line: SplitLine): string {
  const n = line.args.length;
  const env = line.env.length ? `, ${line.env.length} environment variable${line.env.length > 1 ? 's' : ''}` : '';
  return `${line.command} with ${n} argument${n === 1 ? '' : 's'}${env}`;
}

export function CommandField({ f, set, error }: { f: ConfigForm; set: (p: Partial<Fields>) => void; error: ReactNode }) {
  const id = useId();
  const [undo, setUndo] = useState<{ before: Fields; what: string } | null>(null);
  // Blanks inside the name: more than one word to a shell, or quoted.
  const typedLine = /\s/.test(f.command.trim()) ? splitCommandLine(f.command) : null;
  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const text = e.clipboardData.getData('text');
    const value = input.value.slice(0, input.selectionStart ?? 0) + text + input.value.slice(input.selectionEnd ?? input.value.length);
    if (!isCommandLine(value)) return;
    const line = splitCommandLine(value);
    if ('error' in line) return;
    e.preventDefault();
    const before = { command: f.command, args: f.args, env: f.env };
    set(applied(before, line));
    setUndo({ before, what: describe(line) });
  };
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        Command <span className="muted small">(or paste a whole command line)</span>
      </label>
      <input
        id={id}
        value={f.command}
        onChange={(e) => {
          setUndo(null);
          set({ command: e.target.value });
        }}
        onPaste={onPaste}
        placeholder="npx -y @modelcontextprotocol/server-everything"
        className="mono"
        spellCheck={false}
        data-testid="server-form-command"
      />
      {error}
      {undo && (
        <span className="field-note" role="status" data-testid="server-form-command-split">
          Split like a shell: {undo.what}.{' '}
          <button
            type="button"
            className="linkish"
            onClick={() => {
              set(undo.before);
              setUndo(null);
            }}
            data-testid="server-form-command-unsplit"
          >
            Undo
          </button>
        </span>
      )}
      {typedLine && (
        <span className="field-note field-note-warn" data-testid="server-form-command-line">
          {'error' in typedLine ? (
            <>This looks like a command line, but {typedLine.error}.</>
          ) : (
            <>
              This is a whole command line; as it is, mcplab would look for one program named all of it.{' '}
              <Button small onClick={() => set(applied(f, typedLine))} data-testid="server-form-command-apply">
                Split into {describe(typedLine)}
              </Button>
            </>
          )}
        </span>
      )}
    </div>
  );
}
