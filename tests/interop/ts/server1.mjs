// A small MCP server written with the official TypeScript SDK 1.x (@modelcontextprotocol/sdk,
// installed in tests/npm as server-everything's dependency), for mcplab's interop tests of the
// handshake era: elicitation with `format`s (the SDK checks the answer with Ajv formats), a
// discriminated union argument, and log lines and progress in a known order.
//
//   node server1.mjs stdio
import { pathToFileURL } from 'node:url';

// The packages live in tests/npm (installed once for every test peer).
const modules = new URL('../../npm/node_modules/', import.meta.url);
const load = (file) => import(pathToFileURL(new URL(file, modules).pathname).href);
const { McpServer } = await load('@modelcontextprotocol/sdk/dist/esm/server/mcp.js');
const { StdioServerTransport } = await load('@modelcontextprotocol/sdk/dist/esm/server/stdio.js');
const { z } = await load('zod/index.js');

const server = new McpServer({ name: 'ts1-interop', version: '1.0.0' }, { capabilities: { logging: {} } });

server.registerTool(
  'ask_form',
  { description: 'Elicit an email, a site and a birthday', inputSchema: {} },
  async () => {
    const r = await server.server.elicitInput({
      message: 'Contact details',
      requestedSchema: {
        type: 'object',
        properties: {
          email: { type: 'string', format: 'email', title: 'Email' },
          site: { type: 'string', format: 'uri', title: 'Site' },
          born: { type: 'string', format: 'date', title: 'Birthday' },
        },
        required: ['email', 'site', 'born'],
      },
    });
    return { content: [{ type: 'text', text: `${r.action} ${JSON.stringify(r.content ?? null)}` }] };
  },
);

server.registerTool(
  'pay',
  {
    description: 'A discriminated union argument',
    inputSchema: {
      customer: z.string(),
      payment: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('card'), number: z.string() }),
        z.object({ kind: z.literal('invoice'), po: z.string() }),
      ]),
    },
  },
  async ({ customer, payment }) => ({
    content: [{ type: 'text', text: `paid ${customer} ${JSON.stringify(payment)}` }],
  }),
);

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
server.registerTool(
  'log_all',
  { description: 'One log line per level, each after a progress step, in this order', inputSchema: {} },
  async (_args, extra) => {
    const token = extra._meta?.progressToken;
    for (const [i, level] of LEVELS.entries()) {
      if (token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: i + 1, total: LEVELS.length, message: `step ${i + 1}` },
        });
      }
      await server.server.sendLoggingMessage({ level, data: `line ${i + 1} at ${level}` }, extra.sessionId);
    }
    return { content: [{ type: 'text', text: 'logged' }] };
  },
);

const mode = process.argv[2] ?? 'stdio';
if (mode === 'stdio') {
  await server.connect(new StdioServerTransport());
} else {
  console.error(`usage: server1.mjs stdio (got ${mode})`);
  process.exit(2);
}
