// A command line as a README gives it (`npx -y @scope/server --port 3000`, maybe with
// `KEY=value` assignments in front, quotes, and `\`-continued lines) split the way a POSIX
// shell would: words on unquoted blanks, '…' literal, "…" with \" \\ \$ \` escapes, \x outside
// quotes the character x. No expansion ($VAR, ~, globs) — the server gets the words as typed.

export interface SplitLine {
  /** Leading NAME=value words (the shell's environment assignments). */
  env: { key: string; value: string }[];
  command: string;
  args: string[];
}

/** The words of `line`, or an error for an unclosed quote. */
export function shellWords(line: string): { words: string[] } | { error: string } {
  const words: string[] = [];
  let word: string | null = null;
  const push = (c: string) => {
    word = (word ?? '') + c;
  };
  const s = line.replace(/^\s*\$\s+/, '');
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      const next = s[i + 1];
      i++;
      if (next === '\n') continue;
      if (next === '\r' && s[i + 1] === '\n') {
        i++;
        continue;
      }
      if (next !== undefined) push(next);
    } else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) return { error: 'a single quote (\') is not closed' };
      push(s.slice(i + 1, end));
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let out = '';
      for (; j < s.length && s[j] !== '"'; j++) {
        if (s[j] === '\\' && '"\\$`\n'.includes(s[j + 1] ?? '')) {
          j++;
          if (s[j] !== '\n') out += s[j];
        } else out += s[j];
      }
      if (j >= s.length) return { error: 'a double quote (") is not closed' };
      push(out);
      i = j;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else push(c);
  }
  if (word !== null) words.push(word);
  return { words };
}

/** Whether `text` would be more than one word to a shell (so it is a command line). */
export function isCommandLine(text: string): boolean {
  const r = shellWords(text);
  return 'words' in r && r.words.length > 1;
}

/** `line` as environment, command and arguments; an error when it has no command. */
export function splitCommandLine(line: string): SplitLine | { error: string } {
  const r = shellWords(line);
  if ('error' in r) return r;
  const env: SplitLine['env'] = [];
  let i = 0;
  for (; i < r.words.length; i++) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(r.words[i]);
    if (!m) break;
    env.push({ key: m[1], value: m[2] });
  }
  if (i >= r.words.length) return { error: 'there is no command in it' };
  return { env, command: r.words[i], args: r.words.slice(i + 1) };
}
