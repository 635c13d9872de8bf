#!/usr/bin/env bash
# Installs the Python MCP SDKs the interop tests run servers with: `.venv1` holds the 1.x SDK
# (FastMCP), `.venv2` the 2.x SDK (MCPServer). Idempotent and fast when already installed: a
# venv is (re)built only when missing or when its requirement line changed.
set -euo pipefail
cd "$(dirname "$0")"

venv() { # DIR REQUIREMENT
  local dir=$1 req=$2
  if [ -x "$dir/bin/python" ] && [ "$(cat "$dir/.requirement" 2>/dev/null)" = "$req" ]; then
    return
  fi
  echo "== python: installing '$req' into tests/python/$dir"
  rm -rf "$dir"
  python3 -m venv "$dir"
  "$dir/bin/pip" install --quiet --disable-pip-version-check "$req" 'uvicorn' 'starlette'
  echo "$req" >"$dir/.requirement"
}

venv .venv1 'mcp>=1.20,<2'
venv .venv2 'mcp>=2,<3'
