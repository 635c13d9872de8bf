#!/usr/bin/env bash
# Tap benchmark: what `mcplab tap` adds per frame between a host and a stdio server (the demo
# server), beside a direct connection in the same run, recording to a file and live to a
# running inspector; the tap's peak memory after that run and under a hostile server's floods.
# Prints the machine facts and Markdown tables (see BENCHMARKS.md, "Tap").
#
#   benches/tap.sh                          # REQUESTS=2000 FLOOD_MIB=1024 by default
#   MCPLAB_BIN=path benches/tap.sh          # skip the cargo build, measure this binary
#
# Loopback only: the live rows talk to a `mcplab serve` on 127.0.0.1. Needs bash, python3
# (stdlib only), cargo (unless MCPLAB_BIN).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REQUESTS=${REQUESTS:-2000}
FLOOD_MIB=${FLOOD_MIB:-1024}
log() { printf '%s\n' "$*" >&2; }

if [[ -n ${MCPLAB_BIN:-} ]]; then
  MCPLAB=$MCPLAB_BIN
else
  log "building mcplab (release)…"
  (cd "$ROOT" && cargo build --release -p mcplab --quiet) >&2
  MCPLAB=$ROOT/target/release/mcplab
fi
MCPLAB=$(cd "$(dirname "$MCPLAB")" && pwd)/$(basename "$MCPLAB")

RUSTC_V=$(rustc --version 2>/dev/null || echo "rustc ?")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mcplab-tap-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost
export HOME=$WORK/home MCPLAB_DATA_DIR=$WORK/data
mkdir -p "$HOME"

echo "## Machine"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), nproc $(nproc)"
echo "- loadavg at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- mcplab: $("$MCPLAB" --version 2>/dev/null || echo '?') (git $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo '+dirty')), $RUSTC_V"
echo "- python3 (harness): $(python3 --version 2>&1 | cut -d' ' -f2)"
echo
python3 "$ROOT/benches/tap_bench.py" --mcplab "$MCPLAB" --work "$WORK" \
  --requests "$REQUESTS" --flood-mib "$FLOOD_MIB" || status=$?
echo
echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "${status:-0}"
