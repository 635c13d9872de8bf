#!/usr/bin/env bash
# The Python MCP SDK 2.x for mcplab's 2026-07-28 interop tests (tests/interop/python/.venv,
# `mcp>=2,<3`). Idempotent: the venv is rebuilt only when missing or when the requirement
# changed. (The `interop` work keeps its own venvs under tests/python; this one serves only
# tests/interop.)
set -euo pipefail
cd "$(dirname "$0")"
req='mcp>=2,<3'
if [ -x .venv/bin/python ] && [ "$(cat .venv/.requirement 2>/dev/null)" = "$req" ]; then
  exit 0
fi
echo "== python: installing '$req' into tests/interop/python/.venv"
rm -rf .venv
python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check "$req" uvicorn
echo "$req" > .venv/.requirement
