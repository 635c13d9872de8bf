#!/usr/bin/env node
// The `mcplab` command of the npm package: runs the native binary that npm installed as the
// optional dependency for this machine (@mcplab/<os>-<cpu>; the esbuild/biome pattern: npm
// skips the packages whose `os`/`cpu`/`libc` do not match, so nothing is downloaded after
// install). MCPLAB_BINARY names another binary to run instead. It only launches: arguments,
// stdio and the exit status pass through unchanged.
"use strict";

const { spawn } = require("node:child_process");
const path = require("node:path");

const SUPPORTED = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"];

function binaryPath() {
  if (process.env.MCPLAB_BINARY) return process.env.MCPLAB_BINARY;
  const platform = `${process.platform}-${process.arch}`;
  const pkg = `@mcplab/${platform}`;
  const exe = process.platform === "win32" ? "mcplab.exe" : "mcplab";
  try {
    return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
  } catch {
    const why = SUPPORTED.includes(platform)
      ? `${pkg} is not installed: npm leaves it out when optional dependencies are omitted ` +
        "(--omit=optional, --no-optional). Install mcplab again without that flag."
      : `mcplab has no prebuilt binary for ${platform} (there are: ${SUPPORTED.join(", ")}). ` +
        "Build it from source (`cargo install mcplab`) and set MCPLAB_BINARY to it.";
    process.stderr.write(`mcplab: ${why}\n`);
    process.exit(1);
  }
}

const child = spawn(binaryPath(), process.argv.slice(2), { stdio: "inherit" });

// Ctrl-C reaches mcplab from the terminal as well: wait for it to finish cancelling instead of
// exiting under it. Signals sent to this launcher alone are passed on.
process.on("SIGINT", () => {});
for (const signal of ["SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}

child.on("error", (err) => {
  process.stderr.write(`mcplab: cannot run ${child.spawnfile}: ${err.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    // End the way mcplab ended, so a caller sees the same signal.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
