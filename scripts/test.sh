#!/usr/bin/env bash
# Runs every test of mcplab: formatting and lints, unit, integration, interop (against npm's
# server-everything), black-box CLI tests, and the official MCP client conformance suite.
# Needs Rust (with cargo-nextest if available) and Node >= 20 with npm; installs the npm test
# peers into tests/npm on first use.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d tests/npm/node_modules/@modelcontextprotocol/server-everything ] \
   || [ tests/npm/package-lock.json -nt tests/npm/node_modules/.package-lock.json ]; then
  echo "== installing npm test peers (tests/npm)"
  npm ci --prefix tests/npm --no-audit --no-fund
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== build"
cargo build --workspace --locked

echo "== conformance (official client suite)"
tests/conformance/run.sh

echo "== tests"
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --workspace --locked --no-fail-fast
else
  cargo test --workspace --locked --no-fail-fast
fi
