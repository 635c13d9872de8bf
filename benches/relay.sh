#!/usr/bin/env bash
# What the genai x-ray relay (crates/mcplab-llm/src/xray/relay.rs) costs per model step: the
# provider layer streams steps from the testkit's scripted LLM server with an x-ray capture
# (genai → the step's loopback relay → the server) and without (genai → the server), in
# separate processes, alternating, and prints a Markdown table of the medians over the rounds:
# time to the first event and to the end of a step, and the client's resident memory. With
# heaptrack installed (Debian's `heaptrack`), one more run per mode counts allocations.
#
#   benches/relay.sh                          # ROUNDS=5 STEPS=200 WARMUP=20 CHUNKS=200
#   RELAY_BIN=path SCRIPTED_BIN=path benches/relay.sh   # skip the cargo builds
#
# Only loopback traffic: the scripted server binds 127.0.0.1:0 and proxies are unset.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROUNDS=${ROUNDS:-5}
STEPS=${STEPS:-200}
WARMUP=${WARMUP:-20}
CHUNKS=${CHUNKS:-200}
log() { printf '%s\n' "$*" >&2; }

if [[ -z ${RELAY_BIN:-} || -z ${SCRIPTED_BIN:-} ]]; then
  log "building the examples (release)…"
  (cd "$ROOT" && cargo build --release --quiet -p mcplab-llm --example relay_cost \
    && cargo build --release --quiet -p mcplab-testkit --features test-servers --example scripted_llm) >&2
  RELAY_BIN=${RELAY_BIN:-$ROOT/target/release/examples/relay_cost}
  SCRIPTED_BIN=${SCRIPTED_BIN:-$ROOT/target/release/examples/scripted_llm}
fi
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export NO_PROXY=127.0.0.1 no_proxy=127.0.0.1

WORK=$(mktemp -d)
SERVER_PID=
cleanup() { [[ -n $SERVER_PID ]] && kill "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
total=$(( (ROUNDS * 2 + 2) * (STEPS + WARMUP) ))
"$SCRIPTED_BIN" --steps "$total" --chunks "$CHUNKS" > "$WORK/server.out" &
SERVER_PID=$!
for _ in $(seq 100); do grep -q '^listening ' "$WORK/server.out" && break; sleep 0.1; done
URL=$(sed -n 's/^listening //p' "$WORK/server.out")
[[ -n $URL ]] || { log "the scripted server did not start"; exit 1; }

echo "- machine: $(nproc) cores, load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- each step: one streamed reply of $CHUNKS chunks; $STEPS steps per run after $WARMUP warm-up steps, $ROUNDS rounds per mode"
for round in $(seq "$ROUNDS"); do
  modes=(direct relay); (( round % 2 == 0 )) && modes=(relay direct)
  for mode in "${modes[@]}"; do
    "$RELAY_BIN" --url "$URL" --mode "$mode" --steps "$STEPS" --warmup "$WARMUP" >> "$WORK/runs.jsonl"
  done
done
echo "- load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$WORK/runs.jsonl" <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
def med(mode, *path):
    vals = []
    for r in runs:
        if r["mode"] != mode: continue
        v = r
        for p in path: v = v[p]
        vals.append(v)
    return statistics.median(vals)
rows = [("time to first event, p50 (ms)", ("firstEventMs", "p50"), 1), ("time to first event, p90 (ms)", ("firstEventMs", "p90"), 1),
        ("whole step, p50 (ms)", ("stepMs", "p50"), 1), ("whole step, p90 (ms)", ("stepMs", "p90"), 1),
        ("RSS after warm-up (MiB)", ("rssKiB", "afterWarmup"), 1024), ("RSS at the end (MiB)", ("rssKiB", "end"), 1024),
        ("peak RSS (MiB)", ("rssKiB", "peak"), 1024)]
print("\n| measure (median of the rounds) | direct | relay | relay − direct |\n|---|---:|---:|---:|")
for name, path, div in rows:
    d, r = med("direct", *path) / div, med("relay", *path) / div
    print(f"| {name} | {d:.2f} | {r:.2f} | {r - d:+.2f} |")
PY
if command -v heaptrack >/dev/null && command -v heaptrack_print >/dev/null; then
  echo
  echo "| heaptrack, one run of $STEPS steps (+$WARMUP) | direct | relay |"
  echo "|---|---:|---:|"
  declare -A calls peak temp
  for mode in direct relay; do
    heaptrack -o "$WORK/ht-$mode" "$RELAY_BIN" --url "$URL" --mode "$mode" --steps "$STEPS" --warmup "$WARMUP" >/dev/null 2>&1
    out=$(heaptrack_print "$WORK"/ht-"$mode"*.zst 2>/dev/null | tail -20)
    calls[$mode]=$(sed -n 's/^calls to allocation functions: \([0-9]*\).*/\1/p' <<<"$out")
    peak[$mode]=$(sed -n 's/^peak heap memory consumption: //p' <<<"$out")
    temp[$mode]=$(sed -n 's/^temporary memory allocations: \([0-9]*\).*/\1/p' <<<"$out")
  done
  steps=$(( STEPS + WARMUP ))
  echo "| allocation calls per step | $(( ${calls[direct]:-0} / steps )) | $(( ${calls[relay]:-0} / steps )) |"
  echo "| temporary allocations per step | $(( ${temp[direct]:-0} / steps )) | $(( ${temp[relay]:-0} / steps )) |"
  echo "| peak heap | ${peak[direct]:-?} | ${peak[relay]:-?} |"
fi
