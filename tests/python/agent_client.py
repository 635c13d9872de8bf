"""An independent client for `mcplab mcp` (issue 25), written with the official Python SDK
(1.x: ClientSession over stdio, the handshake era; 2.x: Client, which negotiates 2026-07-28 by
`server/discover`). It drives one `mcplab mcp` process through a session an agent would have
and prints one JSON object with what it saw; crates/mcplab/tests/it/agent_mcp.rs judges it.

usage: agent_client.py MCPLAB_BIN DATA_DIR SCENARIO [extra mcplab mcp args...]
  SCENARIO session  the whole session (connect, call, notifications, sampling and elicitation
                    answered here, check, …)
  SCENARIO vanish   connect the demo server, print its pid, then exit without closing
  SCENARIO render   render the demo's counter app (needs Chromium) and look at the PNG
  SCENARIO eval     run the suite $AGENT_SUITE (models on $OPENAI_BASE_URL), then cancel a run
  SCENARIO limits   calls past `--timeout` and `--limit message=…` (given as extra args)
  SCENARIO attach   connect the demo server, call echo (with --attach: seen in `mcplab serve`),
                    read `traffic` (the person's calls too) and what came after its cursor
"""

import asyncio
import base64
import json
import os
import subprocess
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
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "NO_PROXY"):
        if name in os.environ:
            env[name] = os.environ[name]
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


def image(content):
    """An image block as the client decoded it: its type, size and first bytes."""
    data = base64.b64decode(content["data"], validate=True)
    return {"mimeType": content["mimeType"], "bytes": len(data), "head": data[:24].hex()}


class Session:
    """The calls the scenario makes, the same for both SDKs."""

    def __init__(self, call, list_tools, protocol, cancel_last=None):
        self.call = call
        self.list_tools = list_tools
        self.protocol = protocol
        self.cancel_last = cancel_last

    async def cancel(self, task):
        """Abandons the call `task` awaits: 2.x says `notifications/cancelled` itself when its
        task is cancelled, 1.x is told to (the last request it sent)."""
        if self.cancel_last:
            await self.cancel_last()
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass

    async def tool(self, name, arguments, progress=None):
        r = wire(await self.call(name, arguments, progress_callback=progress))
        content = r.get("content", [])
        text = "".join(c.get("text", "") for c in content)
        images = [image(c) for c in content if c.get("type") == "image"]
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
    # The default policy (`auto`) forwards the server's elicitation to this client.
    out["elicited"] = await s.tool("call_tool", {"server": "demo", "tool": "elicit_form"})
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
    await s.tool("policy", {"elicitation": "forward"})
    out["elicited26"] = await s.tool("call_tool", {"server": "demo26", "tool": "elicit_form"})
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


async def render_scenario(s):
    out = {"protocol": s.protocol}
    out["connect"] = await s.tool("connect", {"server": "demo", "command": DEMO})
    progress = []

    async def on_progress(p, total, message):
        progress.append([p, total, message])

    out["render"] = await s.tool(
        "render_app", {"server": "demo", "tool": "show_counter_app",
                       "device": "mobile", "theme": "dark"}, on_progress)
    out["progress"] = progress
    out["noUi"] = await s.tool("render_app", {"server": "demo", "tool": "echo"})
    return out


async def limits_scenario(s):
    out = {"connect": await s.tool("connect", {"server": "demo", "command": DEMO})}
    out["slow"] = await s.tool(
        "call_tool", {"server": "demo", "tool": "slow_task",
                      "arguments": {"steps": 3, "step_ms": 1000}})
    out["big"] = await s.tool(
        "call_tool", {"server": "demo", "tool": "echo", "arguments": {"message": "x" * 10000}})
    out["small"] = await s.tool(
        "call_tool", {"server": "demo", "tool": "echo", "arguments": {"message": "small"}})
    return out


async def attach_scenario(s):
    out = {"servers": await s.tool("servers", {})}
    out["connect"] = await s.tool("connect", {"server": "demo", "command": DEMO})
    out["echo"] = await s.tool(
        "call_tool", {"server": "demo", "tool": "echo", "arguments": {"message": "seen live"}})
    # What the person did in the inspector (the test made a call there first), and the agent's.
    out["traffic"] = await s.tool("traffic", {"server": "demo", "method": "tools/call"})
    out["notifications"] = await s.tool("notifications", {"server": "demo"})
    await s.tool(
        "call_tool", {"server": "demo", "tool": "echo", "arguments": {"message": "after"}})
    cursor = out["traffic"]["structured"]["cursor"]
    out["since"] = await s.tool("traffic", {"server": "demo", "since": cursor})
    return out


def stored_runs():
    """`mcplab eval runs --json` of the data directory: the runs as stored."""
    out = subprocess.run([BIN, "eval", "runs", "--json", "--data-dir", DATA],
                         capture_output=True, check=True, text=True, timeout=30)
    return json.loads(out.stdout)


async def eval_scenario(s):
    suite = os.environ["AGENT_SUITE"]
    progress = []

    async def on_progress(p, total, message):
        progress.append([p, total, message])

    out = {"protocol": s.protocol}
    out["eval"] = await s.tool(
        "eval_run", {"suite": suite, "models": ["openai::gpt-good", "openai::gpt-wrong"],
                     "repeat": 2}, on_progress)
    out["evalProgress"] = progress
    out["refused"] = await s.tool(
        "eval_run", {"suite": os.environ["AGENT_BAD_SUITE"], "models": ["openai::gpt-good"]})
    out["cancelled"] = await cancel_a_run(s, suite)
    out["runs"] = stored_runs()
    return out


async def cancel_a_run(s, suite):
    """Starts a run whose second iteration hangs at the model, cancels it once the first
    finished, and waits until the run is stored as cancelled."""
    first = asyncio.Event()

    async def on_progress(p, total, message):
        first.set()

    call = asyncio.ensure_future(s.tool(
        "eval_run", {"suite": suite, "models": ["openai::gpt-hangs"], "repeat": 2}, on_progress))
    await asyncio.wait_for(first.wait(), 60)
    await s.cancel(call)
    deadline = asyncio.get_running_loop().time() + 30
    while asyncio.get_running_loop().time() < deadline:
        runs = [r for r in stored_runs() if r["status"] != "running"]
        if len(runs) == 2:
            return {"runs": runs}
        await asyncio.sleep(0.1)
    return {"timedOut": stored_runs()}


SCENARIOS = {"session": session_scenario, "vanish": vanish_scenario,
             "render": render_scenario, "eval": eval_scenario, "limits": limits_scenario,
             "attach": attach_scenario}


async def run_sdk1(scenario):
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    async with stdio_client(params()) as (read, write):
        async with ClientSession(read, write, sampling_callback=sampling,
                                 elicitation_callback=elicitation) as session:
            init = await session.initialize()

            async def cancel_last():
                params = types.CancelledNotificationParams(
                    requestId=session._request_id - 1, reason="the test cancels")
                await session.send_notification(types.ClientNotification(
                    types.CancelledNotification(params=params)))

            s = Session(session.call_tool, session.list_tools, init.protocolVersion, cancel_last)
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
