#!/usr/bin/env bash
# Runs every test of mcplab, fast stages first, stopping at the first failure:
#
#   lint         cargo fmt --check, the crate layering rules, whether the link order is stale
#                (scripts/link_order.py --check, a warning), cargo clippy -D warnings
#   web          the web UI: typecheck (once), eslint + knip, vitest, vite build (web/dist,
#                which the binary embeds: later stages need it), the first screen's byte budget
#                (web/scripts/first-screen-budget.mjs)
#   rust         every Rust unit and integration test (cargo nextest, --all-features: the
#                interop tests against npm and Python SDK servers and the Chromium renders
#                included; installs tests/npm and the Python venvs they use)
#   package      the test build's binary packaged (archive, npm, wheel) and each package installed
#                into an empty prefix and run (scripts/package.sh --test)
#   conformance  the official MCP client conformance suites (Node 22 from tests/npm)
#   browser      playwright-core driving Debian's Chromium against the real binary
#
#   scripts/test.sh                 # every stage, in the order above
#   scripts/test.sh rust browser    # only these stages (in the order above)
#
# Needs Rust (cargo-nextest if available), Node >= 20 with npm, python3, /usr/bin/chromium.
# A plain `cargo test --workspace` runs the hermetic part (no npm, Python or Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
# Tests that rewrite their expectations when an UPDATE_* variable is set (UPDATE_TS=1 for the
# generated TypeScript types, MCPLAB_WRITE_SCHEMA=1 for the eval suite schema) would pass
# whatever the code does: never here, nor in CI.
for var in $(compgen -e); do
  case "$var" in UPDATE_* | MCPLAB_WRITE_SCHEMA) echo "== ignoring $var: this script checks, it does not rewrite"; unset "$var" ;; esac
done

all_stages=(lint web rust package conformance browser)
if [ "$#" -eq 0 ]; then
  stages=("${all_stages[@]}")
else
  for s in "$@"; do
    [[ " ${all_stages[*]} " == *" $s "* ]] || { echo "unknown stage '$s' (stages: ${all_stages[*]})" >&2; exit 2; }
  done
  stages=()
  for s in "${all_stages[@]}"; do [[ " $* " == *" $s "* ]] && stages+=("$s"); done
fi

started=$SECONDS
stage_start=$SECONDS
timings=()
begin() { stage_start=$SECONDS; echo; echo "==== stage $1"; }
end() { timings+=("$1 $((SECONDS - stage_start))s"); }
trap 'echo; echo "== stage times: ${timings[*]:-none} (total $((SECONDS - started))s)"' EXIT

npm_install() { # DIR: install when missing or when the lock file changed
  if [ ! -d "$1/node_modules" ] || [ "$1/package-lock.json" -nt "$1/node_modules/.package-lock.json" ]; then
    echo "== installing npm packages ($1)"
    npm ci --prefix "$1" --no-audit --no-fund
  fi
}
nextest() {
  if cargo nextest --version >/dev/null 2>&1; then
    cargo nextest run --workspace --locked --all-features "$@"
  else
    cargo test --workspace --locked --all-features "$@"
  fi
}

stage_lint() {
  echo "== cargo fmt --check"
  cargo fmt --all -- --check
  echo "== layering (crate dependencies, one TLS stack)"
  scripts/layering.sh
  echo "== link order (crates/mcplab/link-order.txt still names this build's functions)"
  # Reported, not fatal: a stale file costs the release binary's CLI memory budget, not
  # correctness, and only a release build regenerates it (the release workflow does).
  python3 scripts/link_order.py --check || echo "WARNING: regenerate crates/mcplab/link-order.txt (above) before a release"
  echo "== cargo clippy"
  cargo clippy --workspace --all-targets --all-features --locked -- -D warnings
}

stage_web() {
  npm_install web
  echo "== web: typecheck"
  npm --prefix web run typecheck
  echo "== web: lint"
  npm --prefix web run lint
  echo "== web: unit and component tests"
  npm --prefix web test
  echo "== web: build (web/dist; typechecked above)"
  (cd web && npm exec -- vite build)
  echo "== web: the first screen's byte budget"
  node web/scripts/first-screen-budget.mjs
}

stage_rust() {
  npm_install tests/npm
  npm_install tests/ci
  echo "== python: the MCP SDK 2.x for the 2026-07-28 interop tests"
  tests/interop/python/setup.sh
  echo "== python SDK venvs (tests/python: mcp 1.x and 2.x for the interop tests)"
  tests/python/setup.sh
  echo "== build (binaries and the examples later stages use: scripted LLM, OAuth test server)"
  cargo build --workspace --locked --all-features --bins --examples
  echo "== Rust tests"
  nextest --no-fail-fast
}

stage_package() {
  [ -x target/debug/mcplab ] || cargo build --workspace --locked --all-features --bins --examples
  scripts/package.sh --profile dev --all-features --no-crates --out target/package-test --test
}

stage_conformance() {
  npm_install tests/npm
  [ -x target/debug/mcplab ] || cargo build --workspace --locked --all-features --bins --examples
  echo "== conformance (official client suites)"
  tests/conformance/run.sh
}

stage_browser() {
  npm_install tests/browser
  [ -f web/dist/index.html ] || stage_web
  cargo build --workspace --locked --all-features --bins --examples
  echo "== browser tests (tests/browser, screenshots in tests/browser/output)"
  (cd tests/browser && npm test)
}

for s in "${stages[@]}"; do
  begin "$s"
  "stage_$s"
  end "$s"
done
echo
echo "== all stages passed: ${stages[*]}"
