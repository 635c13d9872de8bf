#!/usr/bin/env bash
# Builds mcplab with its web UI embedded: installs the UI's npm packages, builds web/dist,
# then the release binary (target/release/mcplab). Needs Rust and Node >= 20 with npm.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  npm ci --prefix web --no-audit --no-fund
fi
npm --prefix web run build
cargo build --release -p mcplab
echo "built target/release/mcplab"
