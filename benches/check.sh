#!/usr/bin/env bash
# `mcplab check` of a 100-tool stdio server against the DESIGN.md budget (under 1 s beyond the
# server's start): benches/check_bench.py times check beside a client that only starts the
# server and lists its tools. Prints the machine facts and a Markdown table (see BENCHMARKS.md).
#
#   benches/check.sh                     # release build, RUNS=15 WARMUP=2
#   MCPLAB_BIN=target/debug/mcplab benches/check.sh
#
# Needs bash, python3 (stdlib), cargo (unless MCPLAB_BIN). stdio only: no network at all.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -n ${MCPLAB_BIN:-} ]]; then
  MCPLAB=$MCPLAB_BIN
else
  (cd "$ROOT" && cargo build --release -p mcplab --quiet) >&2
  MCPLAB=$ROOT/target/release/mcplab
fi
MCPLAB=$(cd "$(dirname "$MCPLAB")" && pwd)/$(basename "$MCPLAB")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mcplab-check-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ); nproc $(nproc); loadavg at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- mcplab: $MCPLAB ($(stat -c %s "$MCPLAB") bytes, git $(git -C "$ROOT" rev-parse --short HEAD))"
python3 "$ROOT/benches/check_bench.py" --mcplab "$MCPLAB" --rawsrv "$ROOT/tests/interop/rawsrv.py" \
  --work "$WORK" --runs "${RUNS:-15}" --warmup "${WARMUP:-2}"
echo "- loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)"
