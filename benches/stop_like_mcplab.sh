#!/usr/bin/env bash
# Runs a stdio MCP server and stops it the way the one-shot mcplab CLI does (used by
# benches/cli.sh so that a client with a longer stop policy can be timed under mcplab's):
# when the client closes our stdin, the server's stdin is closed; if the server has not exited
# STOP_GRACE seconds (default 0.2, mcplab's) later it gets SIGTERM, and SIGKILL after another
# STOP_GRACE. The server's stdout and stderr are ours. The wrapper's own cost (a bash start
# and a `cat` hop for every message) is measured by cli.sh's "baseline through this wrapper"
# row.
#
#   benches/stop_like_mcplab.sh node server.js stdio
set -u
GRACE=${STOP_GRACE:-0.2}
[[ $# -gt 0 ]] || { echo "usage: $0 COMMAND [ARGS…]" >&2; exit 2; }

exec 4> >(exec "$@")         # the server reads a pipe we hold the write end of
server=$!
cat >&4                      # the client's requests, until it closes our stdin
exec 4>&-                    # the server's stdin EOF: the first step of the stop
# The clock for the next steps; it must not hold the client's stdout open.
( sleep "$GRACE"; kill -TERM "$server" 2>/dev/null; sleep "$GRACE"; kill -KILL "$server" 2>/dev/null ) \
  </dev/null >/dev/null 2>&1 &
clock=$!
wait "$server"
status=$?
kill "$clock" 2>/dev/null
# Stopped by our own SIGTERM/SIGKILL: a normal stop, as it is for mcplab.
[[ $status == 143 || $status == 137 ]] && status=0
exit "$status"
