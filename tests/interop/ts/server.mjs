// A small MCP server written with the official TypeScript SDK 2.x (@modelcontextprotocol/server),
// for mcplab's interop tests: one factory served over stdio (`serveStdio`, both eras on one
// process) or over streamable HTTP (`createMcpHandler`: 2026-07-28 statelessly, 2025-era
// traffic through the SDK's stateless legacy fallback), on 127.0.0.1 only.
//
//   node server.mjs stdio
//   PORT=3001 node server.mjs http
//   node server.mjs stdio-modern            # legacy: 'reject': 2026-07-28 only
//   PORT=3001 node server.mjs http-modern   # the same over HTTP
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { pathToFileURL } from 'node:url';

// The packages live in tests/npm (installed once for every test peer): import their ES module
// entry points from there, as a bare specifier would if this file lived in tests/npm.
const modules = new URL('../../npm/node_modules/', import.meta.url);
async function load(name, subpath = '.') {
  const root = new URL(`${name}/`, modules);
  const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  const entry = manifest.exports?.[subpath]?.import;
  const file = typeof entry === 'string' ? entry : (entry?.default ?? manifest.module ?? manifest.main);
  return import(pathToFileURL(new URL(file, root).pathname).href);
}
const { McpServer, acceptedContent, createMcpHandler, inputRequired, inputResponse } = await load('@modelcontextprotocol/server');
const { serveStdio } = await load('@modelcontextprotocol/server', './stdio');
const { toNodeHandler } = await load('@modelcontextprotocol/node');
const { z } = await load('zod');

function factory() {
  const server = new McpServer({ name: 'ts-interop', version: '2.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo a message', inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({ content: [{ type: 'text', text: `echo: ${message}` }] }),
  );
  server.registerTool(
    'greet',
    { description: 'Ask for a name (input_required), then greet', inputSchema: z.object({}) },
    async (_args, ctx) => {
      const schema = z.object({ name: z.string() });
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'who', schema);
      if (!answer) {
        return inputRequired({
          inputRequests: { who: inputRequired.elicit({ message: 'Who are you?', requestedSchema: schema }) },
          requestState: 'greet-round-1',
        });
      }
      const state = ctx.mcpReq.requestState?.();
      return { content: [{ type: 'text', text: `hello ${answer.name} (${state ?? 'no state'})` }] };
    },
  );
  server.registerTool(
    'forecast',
    {
      description: 'Ask for a city (input_required in 2026-07-28), then forecast with structured output',
      inputSchema: z.object({}),
      outputSchema: z.object({ city: z.string(), temp: z.number() }),
    },
    async (_args, ctx) => {
      const schema = z.object({ city: z.string() });
      // Asked once: a declined answer still gets a (default) forecast, so no client loops.
      if (inputResponse(ctx.mcpReq.inputResponses, 'city').kind === 'missing') {
        return inputRequired({
          inputRequests: { city: inputRequired.elicit({ message: 'Which city?', requestedSchema: schema }) },
        });
      }
      const city = acceptedContent(ctx.mcpReq.inputResponses, 'city', schema)?.city ?? 'nowhere';
      const out = { city, temp: 21.5 };
      return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out };
    },
  );
  server.registerResource('readme', 'ts://readme', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'written with the TypeScript SDK 2.x' }],
  }));
  return server;
}

const mode = process.argv[2] ?? 'stdio';
// `-modern` modes refuse the 2025 handshake (the SDK's strict modern-only setting).
const legacy = mode.endsWith('-modern') ? { legacy: 'reject' } : {};
if (mode === 'stdio' || mode === 'stdio-modern') {
  serveStdio(factory, legacy);
} else if (mode === 'http' || mode === 'http-modern') {
  const handler = toNodeHandler(createMcpHandler(factory, legacy));
  http.createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    handler(req, res);
  }).listen(Number(process.env.PORT ?? 3001), '127.0.0.1');
} else {
  console.error(`usage: server.mjs stdio|http|stdio-modern|http-modern (got ${mode})`);
  process.exit(2);
}
