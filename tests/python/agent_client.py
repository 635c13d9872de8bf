"""An independent client for `mcplab mcp` (issue 25), written with the official Python SDK
(1.x: ClientSession over stdio, the handshake era; 2.x: Client, which negotiates 2026-07-28 by
`server/discover`). It drives one `mcplab mcp` process through a session an agent would have
and prints one JSON object with what it saw; crates/mcplab/tests/it/agent_mcp.rs judges it.

usage: agent_client.py MCPLAB_BIN DATA_DIR SCENARIO [extra mcplab mcp args...]
  SCENARIO session  the whole session (connect, call, notifications, sampling, check, …)
  SCENARIO vanish   connect the demo server, print its pid, then exit without closing
"""

import asyncio
import json
import os
import sys

import mcp
import mcp.types as types
from mcp import StdioServerParameters

SDK2 = mcp.__version__.startswith("2") if hasattr(mcp, "__version__") else hasattr(mcp, "Client")

BIN, DATA, SCENARIO, *EXTRA = sys.argv[1:]
DEMO = f"{BIN} demo-server"


def params():
    args = ["mcp", "--data-dir", DATA, "--allow-command", f"{BIN} demo-server*", *EXTRA]
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp")}
    return StdioServerParameters(command=BIN, args=args, env=env)


async def sampling(context, params):
    asked = params.messages[0].content
    text = getattr(asked, "text", "?")
    return types.CreateMessageResult(
        role="assistant",
        content=types.TextContent(type="text", text=f"agent model says: {text}"),
        model="python-sdk-test",
        stopReason="endTurn",
    )


async def elicitation(context, params):
    return types.ElicitResult(action="accept", content={"name": "Ada"})


def wire(model):
    """A result or tool as it was on the wire (camelCase), whichever SDK parsed it."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


class Session:
    """The calls the scenario makes, the same for both SDKs."""

    def __init__(self, call, list_tools, protocol):
        self.call = call
        self.list_tools = list_tools
        self.protocol = protocol

    async def tool(self, name, arguments, progress=None):
        r = wire(await self.call(name, arguments, progress_callback=progress))
        content = r.get("content", [])
        text = "".join(c.get("text", "") for c in content)
        images = [{"mimeType": c["mimeType"], "bytes": len(c["data"])}
                  for c in content if c.get("type") == "image"]
        return {"isError": bool(r.get("isError")), "text": text,
                "structured": r.get("structuredContent"), "images": images}


async def until_logs(s, count, seconds=10):
    """`notifications` of the demo server, asked again until `count` logs came (or time ran out)."""
    events = []
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        r = await s.tool("notifications", {"server": "demo"})
        events.extend(r["structured"]["events"])
        logs = sum(1 for e in events if e.get("type") == "log")
        if logs >= count or asyncio.get_running_loop().time() > deadline:
            r["structured"]["events"] = events
            return r
        await asyncio.sleep(0.05)


async def session_scenario(s):
    out = {"protocol": s.protocol}
    tools = await s.list_tools()
    out["tools"] = sorted(t.name for t in tools.tools)
    listed = [wire(t) for t in tools.tools]
    out["toolListBytes"] = len(json.dumps({"tools": listed}, separators=(",", ":")))
    out["withOutputSchema"] = sum(1 for t in listed if t.get("outputSchema"))
    out["servers"] = await s.tool("servers", {})
    out["refused"] = await s.tool("connect", {"command": f"touch {DATA}/pwned"})
    out["connect"] = await s.tool(
        "connect", {"server": "demo", "command": DEMO, "protocol": "2025-11-25"})
    out["echo"] = await s.tool(
        "call_tool", {"server": "demo", "tool": "echo", "arguments": {"message": "hi there"}})
    progress = []

    async def on_progress(p, total, message):
        progress.append([p, total, message])

    out["slow"] = await s.tool(
        "call_tool", {"server": "demo", "tool": "slow_task",
                      "arguments": {"steps": 3, "step_ms": 10}}, on_progress)
    out["progress"] = progress
    out["logs"] = await s.tool("call_tool", {"server": "demo", "tool": "log_all_levels"})
    out["notifications"] = await until_logs(s, 8)
    out["sampled"] = await s.tool(
        "call_tool", {"server": "demo", "tool": "sample_llm", "arguments": {"prompt": "2+2?"}})
    await s.tool("policy", {"elicitation": "decline"})
    out["declined"] = await s.tool("call_tool", {"server": "demo", "tool": "elicit_form"})
    out["traffic"] = await s.tool("traffic", {"server": "demo", "method": "tools/call", "last": 4})
    out["restart"] = await s.tool("restart", {"server": "demo"})
    out["check"] = await s.tool("check", {"server": "demo"})
    out["hosts"] = await s.tool("hosts", {"name": "claude", "against": "chatgpt"})
    out["modern"] = await s.tool(
        "connect", {"server": "demo26", "command": DEMO, "protocol": "2026-07-28"})
    out["echo26"] = await s.tool(
        "call_tool", {"server": "demo26", "tool": "echo", "arguments": {"message": "new era"}})
    out["disconnect"] = await s.tool("disconnect", {"server": "demo"})
    out["afterDisconnect"] = await s.tool(
        "call_tool", {"server": "demo", "tool": "echo", "arguments": {"message": "x"}})
    return out


async def vanish_scenario(s):
    r = await s.tool("connect", {"server": "demo", "command": DEMO})
    pid = r["structured"]["pid"]
    with open(f"/proc/{pid}/stat") as f:
        ppid = int(f.read().rsplit(")", 1)[1].split()[1])
    print(json.dumps({"demoPid": pid, "mcplabPid": ppid}), flush=True)
    os._exit(0)


SCENARIOS = {"session": session_scenario, "vanish": vanish_scenario}


async def run_sdk1(scenario):
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    async with stdio_client(params()) as (read, write):
        async with ClientSession(read, write, sampling_callback=sampling,
                                 elicitation_callback=elicitation) as session:
            init = await session.initialize()
            s = Session(session.call_tool, session.list_tools, init.protocolVersion)
            return await scenario(s)


async def run_sdk2(scenario):
    from mcp import Client

    async with Client(params(), sampling_callback=sampling,
                      elicitation_callback=elicitation) as client:
        s = Session(client.call_tool, client.list_tools, client.protocol_version)
        return await scenario(s)


async def main():
    scenario = SCENARIOS[SCENARIO]
    out = await (run_sdk2(scenario) if SDK2 else run_sdk1(scenario))
    print(json.dumps(out), flush=True)


asyncio.run(main())
