#!/usr/bin/env bash
# Footprint of the release binary against DESIGN.md §6: its size and ELF sections, and the
# CLI's own peak RSS for `tools list --demo` (budget 12 MiB; the demo server child is not
# counted). The whole inspector tree idle with the UI open is `UI_ONLY=1 benches/web.sh`.
#
#   benches/footprint.sh                   # RUNS=10; builds target/release/mcplab
#   MCPLAB_BIN=path benches/footprint.sh   # measure this binary, no build
#
# Loopback only (the demo server is a child over stdio). Needs bash, python3, binutils `size`.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=${RUNS:-10}
if [[ -n ${MCPLAB_BIN:-} ]]; then
  MCPLAB=$MCPLAB_BIN
else
  echo "building mcplab (release)…" >&2
  (cd "$ROOT" && cargo build --release -p mcplab --quiet) >&2
  MCPLAB=$ROOT/target/release/mcplab
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mcplab-footprint.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export HOME=$WORK
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ); $(nproc) cores; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- $("$MCPLAB" --version) (the commit it was built from); $(uname -sr)"
python3 "$ROOT/benches/footprint_bench.py" "$MCPLAB" "$RUNS"
echo
echo "- load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
