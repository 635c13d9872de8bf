// A host for mcplab's tap tests, written with the official TypeScript SDK 2.x client
// (@modelcontextprotocol/client): it runs one fixed session against a server — directly or
// through `mcplab tap` — and prints, as one JSON line, the exact bytes the server's side sent
// it (stdio: the child's stdout; HTTP: every response's status, content type and body) plus
// the results it parsed. The Rust test runs it twice and compares the bytes.
//
//   node tap_client.mjs stdio legacy|modern COMMAND [ARGS...]
//   node tap_client.mjs http  legacy|modern URL
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

const [transportKind, era, ...target] = process.argv.slice(2);
const received = [];

/** The SDK's own stdio transport, with a second listener on the child's stdout. */
class RecordingStdio extends StdioClientTransport {
  async start() {
    await super.start();
    // `start` resolves on the child's `spawn` event, before any of its output can arrive.
    this._process.stdout.on('data', (chunk) => received.push(chunk));
  }
}

/** fetch, keeping a copy of every response body as it is read. */
async function recordingFetch(url, init) {
  const response = await fetch(url, init);
  const entry = { method: init?.method ?? 'GET', status: response.status, type: response.headers.get('content-type'), body: [] };
  received.push(entry);
  if (!response.body) return response;
  const [mine, theirs] = response.body.tee();
  entry.copied = (async () => {
    const reader = mine.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        entry.body.push(Buffer.from(value));
      }
    } catch {
      // A stream the client closed: what came before it is kept.
    }
  })();
  return new Response(theirs, { status: response.status, statusText: response.statusText, headers: response.headers });
}

const transport = transportKind === 'stdio'
  ? new RecordingStdio({ command: target[0], args: target.slice(1), stderr: 'inherit' })
  : new StreamableHTTPClientTransport(new URL(target[0]), { fetch: recordingFetch });
const versionNegotiation = era === 'modern' ? { mode: { pin: '2026-07-28' } } : { mode: 'legacy' };
const client = new Client({ name: 'tap-interop-host', version: '1.0.0' }, { versionNegotiation });

await client.connect(transport);
const results = {
  tools: (await client.listTools()).tools.map((t) => t.name),
  echo: await client.callTool({ name: 'echo', arguments: { message: 'through the tap' } }),
  resources: (await client.listResources()).resources.map((r) => r.uri),
  readme: await client.readResource({ uri: 'ts://readme' }),
};
await client.close();
await Promise.all(received.map((r) => r.copied));

const bytes = transportKind === 'stdio'
  ? Buffer.concat(received).toString('utf8')
  : received.map((r) => ({ method: r.method, status: r.status, type: r.type, body: Buffer.concat(r.body).toString('utf8') }));
process.stdout.write(`${JSON.stringify({ bytes, results })}\n`);
process.exit(0);
