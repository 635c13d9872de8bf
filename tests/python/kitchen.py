"""An MCP server written for mcplab's interop tests with the official Python SDK: FastMCP
(`mcp` 1.x) or MCPServer (`mcp` 2.x), whichever the running venv has.

Usage: kitchen.py stdio | http | http-json | sse

HTTP modes bind 127.0.0.1 on a free port and print `PORT <n>` on stdout once listening
(`http`: streamable HTTP with SSE-framed responses at /mcp, `http-json`: JSON responses,
`sse`: the legacy HTTP+SSE transport at /sse). Tools cover nested, optional and enum
arguments, structured output, errors, progress, logging, elicitation with optional fields
and sampling; there is a prompt with a completable argument and a resource template.
"""

import enum
import socket
import sys
from typing import Optional

from pydantic import BaseModel, Field

try:  # mcp 2.x
    from mcp.server.mcpserver import Context, MCPServer as Server

    SDK = 2
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import Context, FastMCP as Server

    SDK = 1

from mcp import types

mcp = Server("kitchen")


class Priority(str, enum.Enum):
    low = "low"
    high = "high"


class Address(BaseModel):
    city: str
    zip: Optional[str] = None


class Customer(BaseModel):
    name: str
    address: Address


class Weather(BaseModel):
    city: str
    celsius: float


class Prefs(BaseModel):
    name: str = Field(default="Ada")
    nick: Optional[str] = Field(default=None)


@mcp.tool()
def create_order(customer: Customer, items: list[str], priority: Priority = Priority.low,
                 note: Optional[str] = None) -> str:
    """Create an order (nested, optional and enum arguments)."""
    return f"order for {customer.name} in {customer.address.city}: {len(items)} item(s), " \
           f"{priority.value}, note={note}"


@mcp.tool()
def weather(city: str) -> Weather:
    """Structured output."""
    return Weather(city=city, celsius=21.5)


@mcp.tool()
def fail() -> str:
    """Always raises."""
    print("Traceback (most recent call last):\nValueError: kitchen boom", file=sys.stderr,
          flush=True)
    raise ValueError("kitchen boom")


@mcp.tool()
async def slow(steps: int, ctx: Context) -> str:
    """Progress and logging."""
    for i in range(steps):
        await ctx.report_progress(i + 1, steps, f"step {i + 1}")
        await ctx.warning(f"warning at step {i + 1}")
    return "done"


@mcp.tool()
async def ask(ctx: Context) -> str:
    """Elicitation with an optional field."""
    r = await ctx.elicit("prefs", Prefs)
    if r.action == "accept":
        return f"accept name={r.data.name} nick={r.data.nick}"
    return r.action


@mcp.tool()
async def summarize(text: str, ctx: Context) -> str:
    """Sampling."""
    try:
        r = await ctx.session.create_message(
            messages=[types.SamplingMessage(role="user",
                                            content=types.TextContent(type="text", text=text))],
            max_tokens=50)
        return f"sampled: {r.content}"
    except Exception as e:  # the client declined
        return f"sampling refused: {e}"


@mcp.prompt()
def greet(language: str) -> str:
    """A prompt with a completable argument."""
    return f"Say hello in {language}."


@mcp.resource("kitchen://recipes/{dish}")
def recipe(dish: str) -> str:
    """A resource template."""
    return f"recipe of {dish}"


@mcp.completion()
async def complete(ref, argument, context):
    if argument.name == "language":
        values = [v for v in ["english", "esperanto", "french"] if v.startswith(argument.value)]
        return types.Completion(values=values, total=len(values), hasMore=False)
    return None


def serve_http(app) -> None:
    import uvicorn

    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)  # connections wait in the backlog until uvicorn serves them
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(app, log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if mode == "stdio":
        mcp.run()
    elif mode == "http":
        serve_http(mcp.streamable_http_app())
    elif mode == "http-json":
        serve_http(mcp.streamable_http_app(json_response=True) if SDK == 2 else json_app())
    elif mode == "sse":
        serve_http(mcp.sse_app())
    else:
        sys.exit(f"unknown mode {mode}")


def json_app():
    mcp.settings.json_response = True
    return mcp.streamable_http_app()


if __name__ == "__main__":
    main()
