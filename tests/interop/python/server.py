"""A small MCP server written with the official Python SDK 2.x (`mcp`, MCPServer), for mcplab's
interop tests: stdio, or stateless streamable HTTP on 127.0.0.1 (both eras where the SDK
serves both).

    .venv/bin/python server.py stdio
    PORT=3002 .venv/bin/python server.py http
"""

import os
import sys

from mcp.server.mcpserver import MCPServer

server = MCPServer("py-interop")


@server.tool()
def echo(message: str) -> str:
    """Echo a message."""
    return f"echo: {message}"


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.resource("py://readme", mime_type="text/plain")
def readme() -> str:
    """What this server is."""
    return "written with the Python SDK 2.x"


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if mode == "stdio":
        server.run("stdio")
    elif mode == "http":
        server.run(
            "streamable-http",
            host="127.0.0.1",
            port=int(os.environ.get("PORT", "3002")),
            stateless_http=True,
        )
    else:
        sys.exit(f"usage: server.py stdio|http (got {mode})")
