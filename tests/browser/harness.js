// Shared setup for the browser tests: starts the real mcplab binary on a free loopback port
// with a private data directory, launches Debian's Chromium headless through playwright-core,
// signs in with a fresh one-time login URL, and saves screenshots into tests/browser/output/.
// The API helper uses the launch secret mcplab records in its data directory (launch.json).
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
export const bin = process.env.MCPLAB_BIN || path.join(root, 'target/debug/mcplab');
export const outputDir = path.join(here, 'output');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

export const scriptedLlmBin = process.env.SCRIPTED_LLM_BIN || path.join(root, 'target/debug/examples/scripted_llm');

/**
 * Starts the testkit's scripted LLM server with a JSON script (or, with `{ rules: true }`, a
 * JSON rules list: answers by position in each conversation's turn, so concurrent chats each
 * get their own); resolves with its base URL.
 */
export async function startScriptedLlm(steps, { rules = false } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcplab-llm-'));
  const file = path.join(dir, 'script.json');
  writeFileSync(file, JSON.stringify(steps));
  const child = spawn(scriptedLlmBin, [rules ? '--rules' : '--script', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const baseUrl = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the scripted LLM server did not start')), 15000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^listening (\S+)$/m);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`scripted_llm exited (${code})`)); });
  });
  return {
    baseUrl,
    /** The chat requests the server received, oldest first (its `/__requests` log). */
    async requests() {
      const res = await fetch(`${baseUrl.replace(/\/v1\/?$/, '')}/__requests`);
      if (!res.ok) throw new Error(`the scripted LLM's request log: HTTP ${res.status}`);
      return res.json();
    },
    stop() {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const oauthServerBin = process.env.OAUTH_SERVER_BIN || path.join(root, 'target/debug/examples/oauth_server');

/**
 * Starts the testkit's OAuth setup (an MCP server behind a loopback authorization server that
 * approves at once) with one of its presets (`dcr`, `pre`, `cimd`, `broken-resource`, …);
 * resolves with the MCP server's URL and the issuer.
 */
export async function startOAuthServer(preset = 'dcr') {
  const child = spawn(oauthServerBin, ['--preset', preset], { stdio: ['ignore', 'pipe', 'inherit'] });
  const { url, issuer } = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the OAuth test server (${preset}) did not start`)), 15000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^listening (\S+)$/m);
      const i = out.match(/^issuer (\S+)$/m);
      if (m && i) { clearTimeout(timer); resolve({ url: m[1], issuer: i[1] }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`oauth_server exited (${code})`)); });
  });
  return {
    url,
    issuer,
    stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
    },
  };
}

/** Starts mcplab; resolves once it printed its URL. */
export async function startMcplab(extraArgs = [], env = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mcplab-browser-'));
  const child = spawn(bin, ['--no-open', '--port', '0', '--data-dir', dataDir, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`mcplab did not print its URL in time\n${stderr}`)), 30000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^open (http:\/\/\S+)$/m);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`mcplab exited (${code})\n${stderr}`)); });
  });
  const base = new URL(url).origin;
  // Written before the URL is printed: the launch secret, for scripts.
  const token = JSON.parse(readFileSync(path.join(dataDir, 'launch.json'), 'utf8')).secret;
  return {
    url, base, token, dataDir, child,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        // The grace timer must not outlive the child: a pending timer keeps node (and the whole
        // test file) alive for its full 10 s after the last test.
        let grace;
        await Promise.race([exited, new Promise((r) => { grace = setTimeout(r, 10000); })]);
        clearTimeout(grace);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
    /** Calls the API directly (for setup and for checking what the UI did). */
    async api(method, p, body) {
      const res = await fetch(base + p, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    /** A fresh one-time login URL (what `mcplab open` opens). */
    async loginUrl() {
      const res = await this.api('POST', '/api/login-codes');
      if (res.status !== 200) throw new Error(`cannot mint a login code: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.url;
    },
  };
}

/** Launches Chromium and opens the app signed in (with a login code of its own, so the
 * printed URL stays unused for tests that need it). */
export async function openApp(mcplab, { colorScheme = 'light' } = {}) {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(await mcplab.loginUrl());
  await page.waitForURL((u) => u.pathname !== '/auth', { timeout: 15000 });
  return { browser, context, page, errors };
}

/** Saves a full-page screenshot as output/<name>.png. */
export async function shot(page, name) {
  mkdirSync(outputDir, { recursive: true });
  await page.screenshot({ path: path.join(outputDir, `${name}.png`), fullPage: true });
}
