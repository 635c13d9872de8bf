#!/usr/bin/env bash
# Eval runner benchmark: 1,000 iterations of one case (a tool call and an answer) through
# `mcplab eval run` against the testkit's scripted LLM (real HTTP on 127.0.0.1) and the demo
# server (one child process for the run), and the same turn one by one through
# `mcplab chat --json` (a process and a server per turn). Prints a Markdown table: wall time,
# per iteration, peak RSS; a 100- and a 1,000-iteration run side by side show whether memory
# stays flat in the number of iterations (results stream to the store).
#
#   benches/evals.sh                                   # ITERATIONS=1000 SMALL=100 CONCURRENCY=8 CHAT_RUNS=30
#   MCPLAB_BIN=path SCRIPTED_BIN=path benches/evals.sh # skip the cargo builds
#
# Loopback only: proxies and provider keys/base URLs are removed from the children's
# environment; the data directory is a scratch one, deleted at the end.
# Needs: bash, python3 (stdlib only), cargo (unless both binaries are given).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
log() { printf '%s\n' "$*" >&2; }
command -v python3 >/dev/null || { log "python3 is required"; exit 2; }
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
case $MCPLAB_BIN in */release/*) build=release ;; */debug/*) build=debug ;; *) build='build ?' ;; esac
echo "machine: $(nproc) cores, $(uname -sr); $(rustc --version 2>/dev/null || echo 'rustc ?'); binary: $MCPLAB_BIN ($build)"
exec python3 "$ROOT/benches/evals_bench.py" "$MCPLAB_BIN" "$SCRIPTED_BIN"
