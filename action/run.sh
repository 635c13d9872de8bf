#!/usr/bin/env bash
# The steps of mcplab's GitHub Action (action.yml), as a script that also runs anywhere else
# (GitLab CI, a laptop, the tests). Inputs come as INPUT_* variables, like the action passes
# them; results go to $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY when those are set.
#
#   action/run.sh install       install mcplab (npm package INPUT_VERSION) unless INPUT_BINARY
#                               names one; prints and exports MCPLAB
#   action/run.sh check         mcplab check INPUT_ARGS with SARIF (INPUT_SARIF), JUnit and a
#                               Markdown summary
#   action/run.sh eval          mcplab eval run INPUT_SUITE INPUT_ARGS [--shard INPUT_SHARD]
#                               --out INPUT_OUT (run.json, junit.xml, report.html)
#   action/run.sh eval-merge    mcplab eval merge of every run.json under INPUT_SHARDS_DIR,
#                               gated by INPUT_ARGS, --out INPUT_OUT
#
# check/eval/eval-merge never fail the step themselves: they record mcplab's exit code as the
# `exit-code` output (and print it), so the action can upload the SARIF and JUnit of a failed
# check before failing; call `action/run.sh exit CODE` to end with it.
set -euo pipefail

out_var() { [ -n "${GITHUB_OUTPUT:-}" ] && echo "$1=$2" >>"$GITHUB_OUTPUT"; echo "$1=$2"; }
summary() { [ -n "${GITHUB_STEP_SUMMARY:-}" ] && cat "$1" >>"$GITHUB_STEP_SUMMARY"; return 0; }
# INPUT_ARGS split the way a shell would (quotes kept together), without evaluating anything.
split_args() {
  args=()
  [ -n "${INPUT_ARGS:-}" ] || return 0
  mapfile -d '' args < <(python3 -c 'import shlex, sys; sys.stdout.write("\0".join(shlex.split(sys.argv[1])) + "\0")' "$INPUT_ARGS")
}
mcplab_bin() { echo "${MCPLAB:-${INPUT_BINARY:-mcplab}}"; }
# Runs mcplab, recording its exit code instead of failing the step.
record() {
  local code=0
  "$@" || code=$?
  out_var exit-code "$code"
}

cmd_install() {
  if [ -n "${INPUT_BINARY:-}" ]; then
    mcplab=$INPUT_BINARY
  else
    local prefix="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/mcplab-install"
    npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "mcplab@${INPUT_VERSION:-latest}"
    mcplab=$prefix/node_modules/.bin/mcplab
  fi
  "$mcplab" --version
  [ -n "${GITHUB_ENV:-}" ] && echo "MCPLAB=$mcplab" >>"$GITHUB_ENV"
  out_var mcplab "$mcplab"
}

cmd_check() {
  split_args
  local sarif=${INPUT_SARIF:-mcplab-check.sarif} junit=${INPUT_JUNIT:-mcplab-check.xml}
  local md=${INPUT_MARKDOWN:-mcplab-check.md}
  record "$(mcplab_bin)" check "${args[@]}" --sarif "$sarif" --junit "$junit" --markdown "$md"
  [ -f "$md" ] && summary "$md"
  out_var sarif "$([ -f "$sarif" ] && echo "$sarif")"
  out_var junit "$([ -f "$junit" ] && echo "$junit")"
}

cmd_eval() {
  split_args
  : "${INPUT_SUITE:?INPUT_SUITE names the suite file}"
  local out=${INPUT_OUT:-mcplab-eval} shard=()
  [ -n "${INPUT_SHARD:-}" ] && shard=(--shard "$INPUT_SHARD")
  record "$(mcplab_bin)" eval run "$INPUT_SUITE" "${shard[@]}" --out "$out" "${args[@]}"
  eval_summary "$out"
}

cmd_eval_merge() {
  split_args
  : "${INPUT_SHARDS_DIR:?INPUT_SHARDS_DIR names the folder holding the run.json of every shard}"
  local out=${INPUT_OUT:-mcplab-eval} runs=()
  mapfile -t runs < <(find "$INPUT_SHARDS_DIR" -name run.json | sort)
  [ "${#runs[@]}" -gt 0 ] || { echo "no run.json under $INPUT_SHARDS_DIR" >&2; out_var exit-code 2; return 0; }
  record "$(mcplab_bin)" eval merge "${runs[@]}" --out "$out" "${args[@]}"
  eval_summary "$out"
}

# A job summary line per run: which run, its JUnit file and report.
eval_summary() {
  local out=$1 md
  out_var out "$out"
  out_var junit "$([ -f "$out/junit.xml" ] && echo "$out/junit.xml")"
  [ -f "$out/junit.xml" ] || return 0
  md=$(mktemp)
  python3 - "$out/junit.xml" >"$md" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
tests = sum(int(s.get("tests", 0)) for s in suites)
failures = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
print(f"### mcplab eval: {tests - failures} of {tests} case × model cells passed\n")
for s in suites:
    for case in s.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            print(f"- ✗ {case.get('classname', '')} {case.get('name', '')}")
PY
  summary "$md"
  rm -f "$md"
}

case "${1:-}" in
  install) cmd_install ;;
  check) cmd_check ;;
  eval) cmd_eval ;;
  eval-merge) cmd_eval_merge ;;
  exit) exit "${2:-0}" ;;
  *) echo "usage: action/run.sh install|check|eval|eval-merge|exit CODE" >&2; exit 2 ;;
esac
