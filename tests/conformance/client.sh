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
  *)
    echo "client.sh: no script for scenario '${MCP_CONFORMANCE_SCENARIO:-}'" >&2
    exit 2 ;;
esac
