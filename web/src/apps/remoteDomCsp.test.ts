// The main page's CSP allows exactly one inline script by hash: the Remote DOM host document
// of @mcp-ui/client (a sandboxed srcdoc frame inherits the page's policy). This recomputes the
// hash from the installed library and checks the server sends it, so an upgrade of the
// library cannot silently break Remote DOM resources.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const web = path.resolve(__dirname, '../..');

function remoteDomScriptHash(): string {
  const src = readFileSync(path.join(web, 'node_modules/@mcp-ui/client/dist/index.mjs'), 'utf8');
  const start = src.indexOf('<script>');
  const end = src.indexOf('<\\/script>', start);
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  // The script sits inside a template literal without interpolations: evaluate the literal.
  const raw = src.slice(start + '<script>'.length, end);
  expect(raw).not.toMatch(/(^|[^\\])\$\{/);
  const text = new Function(`return \`${raw}\`;`)() as string;
  return `sha256-${createHash('sha256').update(text).digest('base64')}`;
}

describe('the Remote DOM inline script', () => {
  it('is the one the server allows by hash', () => {
    const headers = readFileSync(path.join(web, '../crates/mcplab-server/src/security/headers.rs'), 'utf8');
    expect(headers).toContain(`'${remoteDomScriptHash()}'`);
  });
});
