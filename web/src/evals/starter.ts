// The suite a new file starts from (the editor's "New suite") and the starter the folder
// picker writes: one case, a check, the configured servers when there are any. Both load as
// they are; the models line is the one to change first.

/** A suite that loads: `servers` are configured server names (none: the suite names none). */
export function starterSuite(servers: string[] = []): string {
  const uses = servers.length ? `servers: [${servers.map((s) => JSON.stringify(s)).join(', ')}]\n` : '';
  return `# A starter suite: change the models, then add cases (a prompt in turns, what to check).
# Run it here (Run below) or: mcplab eval run THIS_FILE
version: 1
id: starter
title: Starter suite
${uses}models: [openai::gpt-4.1-mini]
repeat: 3
cases:
  - id: says-hello
    turns: [Say hello]
    checks:
      - answerContains: hello
`;
}

/** `starter.yaml`, or `starter-2.yaml`… when that is taken. */
export function freeName(taken: string[]): string {
  for (let i = 1; ; i++) {
    const name = i === 1 ? 'starter.yaml' : `starter-${i}.yaml`;
    if (!taken.includes(name)) return name;
  }
}
