#!/usr/bin/env bash
# The client under test for the official MCP client conformance suite
# (@modelcontextprotocol/conformance, 0.1.16 and 0.2.0-alpha.12). The suite runs
# `client.sh <server-url>` with MCP_CONFORMANCE_SCENARIO set (and, since 0.2.0,
# MCP_CONFORMANCE_PROTOCOL_VERSION: the revision the scenario's server speaks); this script
# drives the real `mcplab` CLI with that revision, so conformance measures exactly what users
# run. MCPLAB_BIN points at the binary (default: target/debug).
#
# `client.sh --dry-run` (with MCP_CONFORMANCE_SCENARIO set) prints the script that would run
# and exits 2 when there is none: run.sh uses it to refuse scenarios nobody handles.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${MCPLAB_BIN:-$here/../../target/debug/mcplab}"
scenario="${MCP_CONFORMANCE_SCENARIO:-}"
proto="${MCP_CONFORMANCE_PROTOCOL_VERSION:-2025-11-25}"

mcplab() { "$bin" --data-dir "$data" --url "$url" --protocol "$proto" --timeout 20 "$@"; }
# Auth scenarios: non-interactive OAuth (the suite's authorization server approves at once and
# redirects back), with the Client ID Metadata Document URL the CIMD scenario expects (used only
# where the authorization server advertises support).
auth() {
  mcplab --oauth non-interactive \
    --oauth-cimd-url https://conformance-test.local/client-metadata.json "$@"
}
# A field of the scenario's context (MCP_CONFORMANCE_CONTEXT, JSON) by dotted path, e.g.
# pre-registered credentials; objects come out as JSON.
ctx() {
  node -e 'let v = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
    for (const k of process.argv[1].split(".")) v = v == null ? undefined : v[k];
    process.stdout.write(v == null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v))' "$1"
}

# One function per scenario (or family); `script_for` picks it.
s_initialize() { mcplab tools list; }
s_tools_call() { mcplab tools call add_numbers -a a=5 -a b=3; }
s_elicitation_defaults() { mcplab --elicitation accept-defaults tools call test_client_elicitation_defaults; }
s_sse_retry() { mcplab tools call test_reconnection; }
# Per-request _meta and the version header; the server first rejects the version (-32022) and
# expects a retry with one it supports.
s_request_metadata() { mcplab tools list; mcplab tools call anything || true; }
# Multi round-trip requests: requestState echoed exactly, omitted when absent, isolated from a
# call made at the same time, and a result without resultType is complete.
s_mrtr() {
  mcplab --elicitation accept-defaults tools call test_mrtr_echo_state &
  local a=$!
  mcplab tools call test_mrtr_unrelated &
  local b=$!
  wait "$a"; wait "$b"
  mcplab --elicitation accept-defaults tools call test_mrtr_no_state
  mcplab tools call test_mrtr_no_result_type
}
s_standard_headers() {
  mcplab tools list
  mcplab tools call test_headers
  mcplab tools call my-hyphenated-tool
  mcplab resources list
  mcplab resources read 'file:///path/to/file%20name.txt'
  mcplab resources read 'https://example.com/resource?id=123'
  mcplab prompts list
  mcplab prompts get test_prompt
}
s_custom_headers() {
  mcplab tools call "$(ctx toolCalls.0.name)" --args "$(ctx toolCalls.0.arguments)"
  mcplab tools call "$(ctx toolCalls.1.name)" --args "$(ctx toolCalls.1.arguments)"
}
# Tools with invalid x-mcp-header annotations must be excluded: mcplab refuses to call them.
s_invalid_tool_headers() {
  mcplab tools list
  mcplab tools call valid_tool -a region=us-west1
  for t in invalid_empty_header invalid_object_header invalid_array_header invalid_null_header \
      invalid_duplicate_same_case invalid_duplicate_diff_case invalid_space_in_name \
      invalid_colon_in_name invalid_non_ascii_name invalid_control_char_name; do
    if mcplab tools call "$t" --args '{}' 2>/dev/null; then
      echo "client.sh: mcplab called the invalid tool $t" >&2; return 1
    fi
  done
}
# A network $ref must never be fetched: list, and type an argument against the schema (the
# scenario server serves tools/list only, so the call itself fails).
s_ref_no_deref() { mcplab tools list; mcplab tools call lookup_user -a id=abc || true; }
# The focal tool's inputSchema goes back verbatim (mcplab --json prints the server's bytes).
s_schema_preservation() {
  local schema
  schema="$(mcplab --json tools list | node -e 'let s = "";
    process.stdin.on("data", d => s += d).on("end", () => {
      const t = JSON.parse(s).tools.find(t => t.name !== "json_schema_echo");
      process.stdout.write(JSON.stringify(t.inputSchema)); })')"
  mcplab tools call json_schema_echo --args "{\"schema\": $schema}"
}
# Skills: listing reads no file; loading verifies size, digest and frontmatter and stops at
# the first mismatch (mcplab exits 1 then, which these scenarios allow).
s_skills_list() { mcplab skills list; }
s_skills_load() { mcplab skills list; mcplab skills read pdf-processing || true; }
s_auth_pre_registration() {
  auth --oauth-client-id "$(ctx client_id)" --oauth-client-secret "$(ctx client_secret)" tools list
}
# initialize passes without a token; tools/list needs mcp:basic, tools/call mcp:write too.
s_auth_step_up() { auth tools call test-tool; }
s_auth_cc_basic() {
  auth --oauth-grant client-credentials --oauth-client-id "$(ctx client_id)" \
    --oauth-client-secret "$(ctx client_secret)" tools list
}
s_auth_cc_jwt() {
  local key="$data/client-key.pem"
  ctx private_key_pem > "$key"
  auth --oauth-grant client-credentials --oauth-client-id "$(ctx client_id)" \
    --oauth-private-key "$key" tools list
}
s_auth_cross_app() {
  auth --oauth-grant cross-app-access --oauth-client-id "$(ctx client_id)" \
    --oauth-client-secret "$(ctx client_secret)" \
    --oauth-idp-token-endpoint "$(ctx idp_token_endpoint)" \
    --oauth-idp-client-id "$(ctx idp_client_id)" --oauth-id-token "$(ctx idp_id_token)" \
    tools list
}
# Workload identity federation: the JWT bearer grant with the workload's JWT.
s_auth_wif() {
  auth --oauth-grant workload-identity --oauth-client-id "$(ctx client_id)" \
    --oauth-assertion "$(ctx valid_jwt)" tools list
}
# Everything else is discovery, registration, scopes, issuer checks and token auth: one
# authorized call.
s_auth_generic() { auth tools list; }

script_for() {
  case "$1" in
    initialize) echo s_initialize ;;
    tools_call) echo s_tools_call ;;
    elicitation-sep1034-client-defaults) echo s_elicitation_defaults ;;
    sse-retry) echo s_sse_retry ;;
    request-metadata) echo s_request_metadata ;;
    sep-2322-client-request-state) echo s_mrtr ;;
    http-standard-headers) echo s_standard_headers ;;
    http-custom-headers) echo s_custom_headers ;;
    http-invalid-tool-headers) echo s_invalid_tool_headers ;;
    json-schema-ref-no-deref) echo s_ref_no_deref ;;
    json-schema-2020-12-preservation) echo s_schema_preservation ;;
    sep-2640-client-no-prefetch) echo s_skills_list ;;
    sep-2640-client-verify-digest | sep-2640-client-verify-size | \
      sep-2640-client-verify-frontmatter) echo s_skills_load ;;
    auth/pre-registration) echo s_auth_pre_registration ;;
    auth/scope-step-up) echo s_auth_step_up ;;
    auth/client-credentials-basic) echo s_auth_cc_basic ;;
    auth/client-credentials-jwt) echo s_auth_cc_jwt ;;
    auth/cross-app-access-complete-flow | auth/enterprise-managed-authorization)
      echo s_auth_cross_app ;;
    auth/wif-jwt-bearer) echo s_auth_wif ;;
    auth/metadata-default | auth/metadata-var[123] | auth/basic-cimd | \
      auth/scope-from-www-authenticate | auth/scope-from-scopes-supported | \
      auth/scope-omitted-when-undefined | auth/scope-retry-limit | \
      auth/token-endpoint-auth-basic | auth/token-endpoint-auth-post | \
      auth/token-endpoint-auth-none | auth/2025-03-26-oauth-metadata-backcompat | \
      auth/2025-03-26-oauth-endpoint-fallback | auth/resource-mismatch | \
      auth/offline-access-scope | auth/offline-access-not-supported | \
      auth/iss-supported | auth/iss-not-advertised | auth/iss-supported-missing | \
      auth/iss-wrong-issuer | auth/iss-unexpected | auth/iss-normalized | \
      auth/metadata-issuer-mismatch | auth/authorization-server-migration | auth/dpop | \
      auth/dpop-nonce) echo s_auth_generic ;;
    *) return 2 ;;
  esac
}

if [ "${1:-}" = "--dry-run" ]; then
  script_for "$scenario" || { echo "client.sh: no script for scenario '$scenario'" >&2; exit 2; }
  exit 0
fi
url="${1:?usage: client.sh SERVER_URL | client.sh --dry-run}"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
fn="$(script_for "$scenario")" || {
  echo "client.sh: no script for scenario '$scenario'" >&2
  exit 2
}
"$fn"
