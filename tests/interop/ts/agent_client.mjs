// An agent's client for `mcplab mcp` (issue 25), written with the official TypeScript SDK 2.x
// client (@modelcontextprotocol/client) in either era: `legacy` (the 2025-11-25 handshake) or
// `modern` (2026-07-28 pinned). It lists the tools, is refused a command, connects the demo
// server, calls a tool with progress, abandons a long call (AbortSignal) and sees the demo
// server stop it, checks the demo server, renders $AGENT_RENDER's app when set (a PNG), then
// prints one JSON line with what it saw; the Rust test
// (crates/mcplab/tests/it/agent_mcp_ts.rs) judges it.
//
//   node agent_client.mjs stdio legacy|modern MCPLAB_BIN DATA_DIR
//   node agent_client.mjs http  legacy|modern URL MCPLAB_BIN
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const modules = new URL('../../npm/node_modules/', import.meta.url);
async function load(name, subpath = '.') {
  const root = new URL(`${name}/`, modules);
  const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  const entry = manifest.exports?.[subpath]?.import;
  const file = typeof entry === 'string' ? entry : (entry?.default ?? manifest.module ?? manifest.main);
  return import(pathToFileURL(new URL(file, root).pathname).href);
}
const { Client, StreamableHTTPClientTransport } = await load('@modelcontextprotocol/client');
const { StdioClientTransport } = await load('@modelcontextprotocol/client', './stdio');

const [kind, era, target, bin] = process.argv.slice(2);
const mcplab = kind === 'stdio' ? target : bin;
const demo = `${mcplab} demo-server`;

const transport = kind === 'stdio'
  ? new StdioClientTransport({
    command: mcplab,
    args: ['mcp', '--data-dir', bin, '--allow-command', `${mcplab} demo-server*`],
    stderr: 'inherit',
  })
  : new StreamableHTTPClientTransport(new URL(target));
const versionNegotiation = era === 'modern' ? { mode: { pin: '2026-07-28' } } : { mode: 'legacy' };
const client = new Client({ name: 'agent-ts', version: '1.0.0' }, { versionNegotiation });

/** One tool call, as the agent's model would see it. */
async function tool(name, args, options) {
  const r = await client.callTool({ name, arguments: args }, options);
  const text = (r.content ?? []).map((c) => c.text ?? '').join('');
  return { isError: Boolean(r.isError), text, structured: r.structuredContent ?? null };
}

await client.connect(transport);
const out = { protocol: client.getNegotiatedProtocolVersion?.() ?? null };
const listed = (await client.listTools()).tools;
out.tools = listed.map((t) => t.name).sort();
out.withOutputSchema = listed.filter((t) => t.outputSchema?.type === 'object').length;
out.refused = await tool('connect', { command: 'touch /tmp/mcplab-agent-ts-pwned' });
const server = `demo-${era}`;
out.connect = await tool('connect', { server, command: demo });
out.echo = await tool('call_tool', { server, tool: 'echo', arguments: { message: 'from ts' } });

const progress = [];
out.slow = await tool('call_tool', { server, tool: 'slow_task', arguments: { steps: 3, step_ms: 10 } },
  { onprogress: (p) => progress.push(p) });
out.progress = progress;

// A call the agent gives up on: the abort must reach the server under test.
const abort = new AbortController();
let firstProgress;
const started = new Promise((resolve) => { firstProgress = resolve; });
const long = tool('call_tool', { server, tool: 'slow_task', arguments: { steps: 100, step_ms: 300 } },
  { signal: abort.signal, onprogress: () => firstProgress() });
await started;
abort.abort('the agent gave up');
out.abandoned = await long.then(() => 'completed', (e) => `rejected: ${e?.name ?? e}`);
// The demo server logs when a cancellation stopped its slow_task.
const deadline = Date.now() + 20000;
out.stopped = [];
while (Date.now() < deadline) {
  const events = (await tool('notifications', { server })).structured?.events ?? [];
  out.stopped.push(...events.filter((e) => JSON.stringify(e).includes('slow_task cancelled')));
  if (out.stopped.length) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}

out.check = await tool('check', { server });
if (process.env.AGENT_RENDER) {
  const r = await client.callTool({
    name: 'render_app',
    arguments: { server, tool: process.env.AGENT_RENDER, device: 'mobile' },
  });
  const block = (r.content ?? []).find((c) => c.type === 'image');
  const png = block ? Buffer.from(block.data, 'base64') : Buffer.alloc(0);
  out.render = {
    isError: Boolean(r.isError),
    structured: r.structuredContent ?? null,
    image: block ? { mimeType: block.mimeType, bytes: png.length, head: png.subarray(0, 24).toString('hex') } : null,
  };
}
out.demoPid = out.connect.structured?.pid ?? null;
await client.close();
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
