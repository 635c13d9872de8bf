#!/usr/bin/env bash
# Chat streaming benchmark: the time-to-first-token and per-event latency mcplab adds over
# talking to the testkit's scripted LLM server directly, and the events per second it sustains
# to an SSE client (the browser's path), plus the same for `mcplab chat --json`. Prints the
# machine facts and Markdown tables (see BENCHMARKS.md).
#
#   benches/chat.sh                        # RUNS=25 COLD_RUNS=10 CLI_RUNS=15 LONG_RUNS=10
#                                          # CHUNKS=2000 MEDIUM_CHUNKS=200 PACED_RUNS=5
#   RUNS=40 LONG_RUNS=20 benches/chat.sh   # more runs
#   MCPLAB_BIN=path SCRIPTED_BIN=path benches/chat.sh   # skip the cargo builds
#
# Only loopback traffic: the scripted servers bind 127.0.0.1:0, mcplab runs with --port 0 on
# its default loopback address, proxies are unset and NO_PROXY=127.0.0.1 for every child, and
# no real provider key or base URL is passed through. Every process the harness starts dies
# with it (PR_SET_PDEATHSIG) and is killed at the end; scratch data dirs are deleted on exit.
# Every row runs the binaries as built, nothing preloaded (an earlier version forced
# TCP_NODELAY with an LD_PRELOAD shim; mcplab and the scripted server set it themselves now).
# Needs: bash, python3 (stdlib only), cargo (unless both binaries are given).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=${RUNS:-25}
COLD_RUNS=${COLD_RUNS:-10}
CLI_RUNS=${CLI_RUNS:-15}
LONG_RUNS=${LONG_RUNS:-10}
CHUNKS=${CHUNKS:-2000}
MEDIUM_CHUNKS=${MEDIUM_CHUNKS:-200}
PACED_RUNS=${PACED_RUNS:-5}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-900}   # seconds for the whole measuring run

log() { printf '%s\n' "$*" >&2; }
command -v python3 >/dev/null || { log "python3 is required"; exit 2; }
PY=$(python3 -c 'import sys; print(sys.executable)')

if [[ -z ${MCPLAB_BIN:-} ]]; then
  log "building mcplab (release)…"
  (cd "$ROOT" && cargo build --release -p mcplab --quiet) >&2
  MCPLAB_BIN=$ROOT/target/release/mcplab
fi
if [[ -z ${SCRIPTED_BIN:-} ]]; then
  log "building the scripted LLM server (release example)…"
  (cd "$ROOT" && cargo build --release -p mcplab-testkit --features test-servers --example scripted_llm --quiet) >&2
  SCRIPTED_BIN=$ROOT/target/release/examples/scripted_llm
fi
for f in "$MCPLAB_BIN" "$SCRIPTED_BIN"; do [[ -x $f ]] || { log "missing $f"; exit 2; }; done

RUSTC_V=$(rustc --version 2>/dev/null || echo "rustc ?")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mcplab-chatbench.XXXXXX")
BENCH_PID=
cleanup() {
  if [[ -n $BENCH_PID ]] && kill -0 "$BENCH_PID" 2>/dev/null; then
    kill "$BENCH_PID" 2>/dev/null || true
    wait "$BENCH_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY

echo "## Machine"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), nproc $(nproc)"
echo "- memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo); kernel $(uname -sr)"
echo "- loadavg at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- mcplab: $("$MCPLAB_BIN" --version 2>/dev/null || echo '?') (${MCPLAB_BIN#"$ROOT"/}, $(stat -c %s "$MCPLAB_BIN") bytes; git $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo '+dirty')), $RUSTC_V"
echo "- scripted LLM server: ${SCRIPTED_BIN#"$ROOT"/} (OpenAI Chat Completions streaming)"
echo "- python3 (harness): $("$PY" --version 2>&1 | cut -d' ' -f2)"
echo
echo "## Results"
echo

status=0
timeout --kill-after=10 "$BENCH_TIMEOUT" \
  "$PY" "$ROOT/benches/chat_bench.py" \
    --mcplab "$MCPLAB_BIN" --scripted "$SCRIPTED_BIN" --work "$WORK" \
    --runs "$RUNS" --cold-runs "$COLD_RUNS" --cli-runs "$CLI_RUNS" \
    --long-runs "$LONG_RUNS" --chunks "$CHUNKS" --medium-chunks "$MEDIUM_CHUNKS" --paced-runs "$PACED_RUNS" &
BENCH_PID=$!
wait "$BENCH_PID" || status=$?
BENCH_PID=
echo
echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
