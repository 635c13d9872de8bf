#!/usr/bin/env bash
# Runs every test of mcplab: formatting and lints (Rust and web), the web UI's unit tests and
# build, unit, integration, interop (against npm's server-everything and friends, and Python SDK
# 1.x/2.x servers in venvs that tests/python/setup.sh installs), black-box CLI and API
# tests, the official MCP client conformance suite, and browser tests (playwright-core driving
# Debian's Chromium against the real binary). Needs Rust (with cargo-nextest if available),
# Node >= 20 with npm, and /usr/bin/chromium; installs the npm packages on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
# Tests that rewrite their expectations when an UPDATE_* variable is set (UPDATE_TS=1 for the
# generated TypeScript types, MCPLAB_WRITE_SCHEMA=1 for the eval suite schema) would pass whatever the code does: never here, nor in CI.
for var in $(compgen -e); do
  case "$var" in UPDATE_* | MCPLAB_WRITE_SCHEMA) echo "== ignoring $var: this script checks, it does not rewrite"; unset "$var" ;; esac
done

npm_install() { # DIR: install when missing or when the lock file changed
  if [ ! -d "$1/node_modules" ] || [ "$1/package-lock.json" -nt "$1/node_modules/.package-lock.json" ]; then
    echo "== installing npm packages ($1)"
    npm ci --prefix "$1" --no-audit --no-fund
  fi
}
npm_install tests/npm
echo "== python: the MCP SDK 2.x for the 2026-07-28 interop tests"
tests/interop/python/setup.sh
echo "== python SDK venvs (tests/python: mcp 1.x and 2.x for the interop tests)"
tests/python/setup.sh

echo "== web: typecheck, lint, unit tests, build"
npm_install web
npm --prefix web run typecheck
npm --prefix web run lint
npm --prefix web test
npm --prefix web run build

echo "== layering (crate dependencies, one TLS stack)"
scripts/layering.sh
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== build (binaries and the examples the browser tests use: scripted LLM, OAuth test server)"
cargo build --workspace --locked --bins --examples

echo "== conformance (official client suite)"
tests/conformance/run.sh

echo "== browser tests (tests/browser, screenshots in tests/browser/output)"
npm_install tests/browser
(cd tests/browser && npm test)

echo "== tests"
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --workspace --locked --no-fail-fast
else
  cargo test --workspace --locked --no-fail-fast
fi
