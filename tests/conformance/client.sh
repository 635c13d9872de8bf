#!/usr/bin/env bash
# The client under test for the official MCP client conformance suite
# (@modelcontextprotocol/conformance). The suite runs `client.sh <server-url>` with
# MCP_CONFORMANCE_SCENARIO set; this script drives the real `mcplab` CLI, so conformance
# measures exactly what users run. MCPLAB_BIN points at the binary (default: target/debug).
set -euo pipefail
url="${1:?usage: client.sh SERVER_URL}"
here="$(cd "$(dirname "$0")" && pwd)"
bin="${MCPLAB_BIN:-$here/../../target/debug/mcplab}"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
mcplab() { "$bin" --data-dir "$data" --url "$url" --timeout 20 "$@"; }
# Auth scenarios: non-interactive OAuth (the suite's authorization server approves at once and
# redirects back), with the Client ID Metadata Document URL the CIMD scenario expects (used only
# where the authorization server advertises support).
auth() {
  mcplab --oauth non-interactive \
    --oauth-cimd-url https://conformance-test.local/client-metadata.json "$@"
}
# A field of the scenario's context (MCP_CONFORMANCE_CONTEXT, JSON), e.g. pre-registered
# credentials.
ctx() {
  node -e 'const c = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
    process.stdout.write(String(c[process.argv[1]] ?? ""))' "$1"
}

case "${MCP_CONFORMANCE_SCENARIO:-}" in
  initialize)
    # Handshake, then an ordinary request on the session.
    mcplab tools list ;;
  tools_call)
    mcplab tools call add_numbers -a a=5 -a b=3 ;;
  elicitation-sep1034-client-defaults)
    mcplab --elicitation accept-defaults tools call test_client_elicitation_defaults ;;
  sse-retry)
    mcplab tools call test_reconnection ;;
  auth/pre-registration)
    auth --oauth-client-id "$(ctx client_id)" --oauth-client-secret "$(ctx client_secret)" \
      tools list ;;
  auth/scope-step-up)
    # initialize passes without a token; tools/list needs mcp:basic, tools/call mcp:write too.
    auth tools call test-tool ;;
  auth/client-credentials-basic)
    auth --oauth-grant client-credentials --oauth-client-id "$(ctx client_id)" \
      --oauth-client-secret "$(ctx client_secret)" tools list ;;
  auth/client-credentials-jwt)
    key="$data/client-key.pem"
    ctx private_key_pem > "$key"
    auth --oauth-grant client-credentials --oauth-client-id "$(ctx client_id)" \
      --oauth-private-key "$key" tools list ;;
  auth/cross-app-access-complete-flow)
    auth --oauth-grant cross-app-access --oauth-client-id "$(ctx client_id)" \
      --oauth-client-secret "$(ctx client_secret)" \
      --oauth-idp-token-endpoint "$(ctx idp_token_endpoint)" \
      --oauth-idp-client-id "$(ctx idp_client_id)" --oauth-id-token "$(ctx idp_id_token)" \
      tools list ;;
  auth/*)
    # Everything else is discovery, registration, scopes and token auth: one authorized call.
    auth tools list ;;
  *)
    echo "client.sh: no script for scenario '${MCP_CONFORMANCE_SCENARIO:-}'" >&2
    exit 2 ;;
esac
