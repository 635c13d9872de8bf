#!/usr/bin/env bash
# Memory under attack (DESIGN.md §6: a hostile server cannot push mcplab past ~200 MiB, and
# memory returns after disconnect). Points the release `mcplab` CLI (`tools list`) and
# `mcplab serve` (through its API, with a live /api/events reader) at benches/hostile_server.py:
# an endless JSON body and an endless SSE line over streamable HTTP, 1,000 × 1 MB notifications
# and 250 × 10 MB stderr lines over stdio. Prints a Markdown table (see BENCHMARKS.md).
#
#   benches/hostile.sh                  # builds the release binary if needed
#   MCPLAB_BIN=path benches/hostile.sh  # measure this binary
#   ROUNDS=3 benches/hostile.sh         # attack/disconnect rounds per serve run
#
# Loopback only: the hostile HTTP servers listen on 127.0.0.1; nothing else is contacted.
# Needs: bash, python3 (stdlib only), cargo (unless MCPLAB_BIN).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROUNDS=${ROUNDS:-2}
if [[ -z ${MCPLAB_BIN:-} ]]; then
  (cd "$ROOT" && cargo build --release -p mcplab >&2)
  MCPLAB_BIN=$ROOT/target/release/mcplab
fi
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)" >&2
echo "mcplab: $("$MCPLAB_BIN" --version)" >&2
exec python3 "$ROOT/benches/hostile_bench.py" --bin "$MCPLAB_BIN" --rounds "$ROUNDS" "$@"
