#!/usr/bin/env python3
"""A raw MCP server over stdio (no SDK) for `mcplab check --host / --readiness / --fuzz`.

Usage: rulesrv.py [--log=FILE] [--case=FILE] [--no-restart=FILE] MODE [MODE…]. Every request it
receives is appended, one JSON line each ({"method", "tool", "arguments"}), to FILE when given, so
tests judge by what the server saw. `--no-restart=FILE`: a crash (of `lookup`) creates FILE first,
and a start that finds FILE writes why to stderr and exits 4 (a server that cannot be started again
after a crash). `--case=FILE` is a server written by the test that breaks (or keeps) particular rules, a
JSON object with any of:

  tools      tool definitions, listed after the modes' tools
  answers    by tool name, how its calls are answered: {"result": …}, {"error": {code, message}},
             {"raw": {…}} (the whole response: keys merged over {"jsonrpc", "id"}), or
             {"ask": {request}} (sends that request to the client, waits for the answer, then
             answers {"content": [text]}); a tool without one answers "ok" as text
  resources  [{uri, mimeType, text, _meta}]: declares `resources` and serves them
  capabilities  merged over the declared capabilities (e.g. {"extensions": {…}})
  discover   how `server/discover` (the 2026-07-28 probe) is answered: {"errorId": ID} answers
             -32601 with that id instead of the request's

Modes (each adds tools):

  fuzz       readOnlyHint tools that break on particular inputs: `lookup` exits when `q` is
             longer than 1000 characters, `slow` never answers an empty `q`, `stats` returns
             structuredContent that breaks its outputSchema when `n` is negative; and
             `delete_everything` (destructive) and `write_note` (not read-only), which exit
             with a loud stderr line if they are ever called
  stats      only `stats` of the fuzz tools (the Check page's "call again": no crash, no hang)
  hosts      tools a host may not take: an MCP Apps view that loads an undeclared script and
             asks for pip and ui/message, an OpenAI-only widget, a tool that must run as a task,
             a 70-character name
  readiness  tools that break directory rules: a catch-all `api_request`, a read-only
             `delete_user`, no annotations, `chat_history` and `password` inputs
  clean      one well-annotated read-only tool (`search_notes`) with an outputSchema
"""

import json
import os
import sys

MODES = {a for a in sys.argv[1:] if not a.startswith("--")}
LOG = next((a[len("--log="):] for a in sys.argv[1:] if a.startswith("--log=")), None)
CASE_FILE = next((a[len("--case="):] for a in sys.argv[1:] if a.startswith("--case=")), None)
CASE = json.load(open(CASE_FILE)) if CASE_FILE else {}
NO_RESTART = next((a[len("--no-restart="):] for a in sys.argv[1:] if a.startswith("--no-restart=")), None)


def log(msg):
    if LOG:
        with open(LOG, "a") as f:
            f.write(json.dumps(msg) + "\n")


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def result(id_, res):
    send({"jsonrpc": "2.0", "id": id_, "result": res})


def error(id_, code, message):
    send({"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}})


RO = {"readOnlyHint": True, "destructiveHint": False, "openWorldHint": False}
OBJ = {"type": "object"}

CHART = """<!doctype html><html><head>
<script src="https://cdn.example.com/chart.js"></script></head><body><div id=c></div>
<script>app.requestDisplayMode({ mode: "pip" }); app.sendMessage({role: "user", content: []});</script>
</body></html>"""
WIDGET = """<!doctype html><div id=w></div><script>
document.getElementById("w").textContent = JSON.stringify(window.openai.toolOutput);
window.openai.callTool("search_notes", {q: "x"});</script>"""


def tools():
    out = []
    if "fuzz" in MODES:
        q = {"type": "string", "maxLength": 5000}
        out += [
            {"name": "lookup", "title": "Lookup", "description": "Looks a word up.",
             "inputSchema": {"type": "object", "properties": {"q": q}, "required": ["q"]},
             "annotations": RO},
            {"name": "slow", "title": "Slow", "description": "Answers slowly.",
             "inputSchema": {"type": "object", "properties": {"q": q}, "required": ["q"]},
             "annotations": RO},
            {"name": "stats", "title": "Stats", "description": "Counts things.",
             "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"]},
             "outputSchema": {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]},
             "annotations": RO},
            {"name": "delete_everything", "title": "Delete everything", "description": "Deletes all data.",
             "inputSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}},
             "annotations": {"readOnlyHint": False, "destructiveHint": True, "openWorldHint": False}},
            {"name": "write_note", "title": "Write note", "description": "Writes a note.",
             "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
        ]
    if "stats" in MODES and "fuzz" not in MODES:
        out.append({"name": "stats", "title": "Stats", "description": "Counts things.",
                    "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"]},
                    "outputSchema": {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]},
                    "annotations": RO})
    if "hosts" in MODES:
        out += [
            {"name": "show_chart", "title": "Show chart", "description": "Shows a chart.", "inputSchema": OBJ,
             "annotations": RO, "_meta": {"ui": {"resourceUri": "ui://rules/chart.html"}}},
            {"name": "show_widget", "title": "Show widget", "description": "Shows a widget.", "inputSchema": OBJ,
             "annotations": RO, "_meta": {"openai/outputTemplate": "ui://rules/widget.html"}},
            {"name": "export_report", "title": "Export report", "description": "Exports a long report.",
             "inputSchema": OBJ, "annotations": RO, "execution": {"taskSupport": "required"}},
            {"name": "n" * 70, "title": "Long", "description": "A tool with a long name.", "inputSchema": OBJ,
             "annotations": RO},
        ]
    if "readiness" in MODES:
        out += [
            {"name": "api_request", "description": "Makes a request.",
             "inputSchema": {"type": "object", "properties": {
                 "method": {"type": "string", "enum": ["GET", "POST", "DELETE"]},
                 "path": {"type": "string"}}, "required": ["method", "path"]}},
            {"name": "delete_user", "title": "Delete user", "description": "Deletes a user.",
             "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
             "annotations": {"readOnlyHint": True}},
            {"name": "summarize", "title": "Summarize", "description": "Summarizes the chat.",
             "inputSchema": {"type": "object", "properties": {"chat_history": {"type": "string"}}},
             "annotations": RO},
            {"name": "login", "title": "Log in", "description": "Logs in.",
             "inputSchema": {"type": "object", "properties": {"password": {"type": "string"}}},
             "annotations": {"readOnlyHint": False, "destructiveHint": False, "openWorldHint": True}},
        ]
    if "clean" in MODES:
        out.append({"name": "search_notes", "title": "Search notes",
                    "description": "Searches the user's notes for a phrase and returns the matching titles.",
                    "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
                    "outputSchema": {"type": "object", "properties": {"titles": {"type": "array", "items": {"type": "string"}}}, "required": ["titles"]},
                    "annotations": dict(RO, title="Search notes")})
    return out + CASE.get("tools", [])


RESOURCES = {
    "ui://rules/chart.html": ("text/html;profile=mcp-app", CHART),
    "ui://rules/widget.html": ("text/html+skybridge", WIDGET),
} if "hosts" in MODES else {}
# The case's resources: uri -> the content served.
CASE_RESOURCES = {r["uri"]: r for r in CASE.get("resources", [])}
for _uri, _r in CASE_RESOURCES.items():
    RESOURCES[_uri] = (_r.get("mimeType", "text/html;profile=mcp-app"), _r.get("text", ""))


def read_message():
    """The next JSON-RPC message from stdin (None at its end); lines that are not JSON skipped."""
    while True:
        line = sys.stdin.readline()
        if not line:
            return None
        try:
            return json.loads(line)
        except ValueError:
            continue


def case_answer(id_, how):
    """Answers a call as the case says."""
    if "result" in how:
        return result(id_, how["result"])
    if "error" in how:
        return send({"jsonrpc": "2.0", "id": id_, "error": how["error"]})
    if "raw" in how:
        return send(dict({"jsonrpc": "2.0", "id": id_}, **how["raw"]))
    asked = dict({"jsonrpc": "2.0"}, **how["ask"])
    send(asked)
    while True:
        msg = read_message()
        if msg is None:
            sys.exit(0)
        if msg.get("id") == asked.get("id") and "method" not in msg:
            break
    result(id_, {"content": [{"type": "text", "text": json.dumps(msg)}]})


def call(id_, name, args):
    q = args.get("q")
    if name in CASE.get("answers", {}):
        return case_answer(id_, CASE["answers"][name])
    if name in ("delete_everything", "write_note"):
        sys.stderr.write(f"UNSAFE TOOL CALLED: {name}\n")
        sys.stderr.flush()
        os._exit(7)
    if name == "lookup":
        if isinstance(q, str) and len(q) > 1000:
            if NO_RESTART:
                open(NO_RESTART, "w").close()
            sys.stderr.write("lookup: buffer overflow\n")
            sys.stderr.flush()
            os._exit(3)
        return result(id_, {"content": [{"type": "text", "text": f"found {str(q)[:20]}"}]})
    if name == "slow":
        if q == "":
            return  # never answers
        return result(id_, {"content": [{"type": "text", "text": "ok"}]})
    if name == "stats":
        n = args.get("n")
        count = "many" if isinstance(n, (int, float)) and n < 0 else 3
        return result(id_, {"content": [{"type": "text", "text": json.dumps({"count": count})}],
                            "structuredContent": {"count": count}})
    if name == "search_notes":
        return result(id_, {"content": [{"type": "text", "text": "[]"}], "structuredContent": {"titles": []}})
    result(id_, {"content": [{"type": "text", "text": "ok"}]})


def resource(uri, mime, text):
    meta = CASE_RESOURCES.get(uri, {}).get("_meta")
    return dict({"uri": uri, "mimeType": mime, "text": text}, **({"_meta": meta} if meta else {}))


def main():
    if NO_RESTART and os.path.exists(NO_RESTART):
        sys.stderr.write(f"rulesrv: not starting again after a crash ({NO_RESTART} exists)\n")
        sys.exit(4)
    while True:
        msg = read_message()
        if msg is None:
            return
        method, id_ = msg.get("method"), msg.get("id")
        params = msg.get("params") or {}
        if method is None or id_ is None:
            continue
        log({"method": method, "tool": params.get("name"), "arguments": params.get("arguments")})
        if method == "initialize":
            caps = {"tools": {}, "resources": {}} if RESOURCES else {"tools": {}}
            caps.update(CASE.get("capabilities", {}))
            result(id_, {"protocolVersion": params.get("protocolVersion", "2025-11-25"),
                         "capabilities": caps, "serverInfo": {"name": "rulesrv", "version": "1"}})
        elif method == "ping":
            result(id_, {})
        elif method == "tools/list":
            result(id_, {"tools": tools()})
        elif method == "tools/call":
            call(id_, params.get("name"), params.get("arguments") or {})
        elif method == "server/discover" and "errorId" in CASE.get("discover", {}):
            error(CASE["discover"]["errorId"], -32601, "Method not found")
        elif method == "resources/list" and RESOURCES:
            result(id_, {"resources": [{"uri": u, "name": u, "mimeType": m} for u, (m, _) in RESOURCES.items()]})
        elif method == "resources/templates/list" and RESOURCES:
            result(id_, {"resourceTemplates": []})
        elif method == "resources/read" and params.get("uri") in RESOURCES:
            mime, text = RESOURCES[params["uri"]]
            result(id_, {"contents": [resource(params["uri"], mime, text)]})
        else:
            error(id_, -32601, "Method not found")


if __name__ == "__main__":
    main()
