#!/usr/bin/env python3
"""Measurement core of benches/check.sh (run that, not this): wall time of `mcplab check` of
a 100-tool stdio server (tests/interop/rawsrv.py many-tools, RAWSRV_TOOLS=100: 100 tools with
~560-character descriptions and an input schema each) beside a baseline that only starts the
same server and lists its tools (a stdlib client: initialize, initialized, tools/list, stdin
EOF, wait for exit). Check's overhead is the difference of the medians. Runs alternate between
the two so machine load hits both alike. Standard library only.

check runs every always-on set (spec: the 2026-07-28 probe, ping, all five listings,
logging/setLevel, every frame against the schema; security) plus --readiness claude and
openai when this mcplab has them, and --no-render; nothing is rendered and no tool is called.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def baseline(server, env):
    """Start the server, list its tools over stdio, stop it; seconds."""
    t0 = time.perf_counter()
    p = subprocess.Popen(server, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)

    def ask(msg):
        p.stdin.write((json.dumps(msg) + "\n").encode())
        p.stdin.flush()
        while True:
            line = json.loads(p.stdout.readline())
            if line.get("id") == msg["id"]:
                return line

    ask({"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "bench", "version": "0"}}})
    p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    tools = ask({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})["result"]["tools"]
    assert len(tools) == 100, len(tools)
    p.stdin.close()
    p.wait()
    return time.perf_counter() - t0


def check(mcplab, server, extra, env):
    t0 = time.perf_counter()
    argv = [mcplab, "check", "--json", "--stdio", " ".join(server), "-e", "RAWSRV_TOOLS=100"]
    out = subprocess.run(argv + extra,
                         stdin=subprocess.DEVNULL, capture_output=True, env=env)
    took = time.perf_counter() - t0
    report = json.loads(out.stdout)
    # The synthetic tools carry no annotations or titles: the directory sets find that (exit 1),
    # which is their job; the spec and security sets must find nothing.
    errors = [f for f in report["findings"] if f["severity"] == "error"
              and not f["ruleSet"].startswith("readiness-")]
    assert out.returncode in (0, 1) and not errors, (out.returncode, errors[:3])
    listed = [e for e in report["eras"][0]["exercised"] if e.startswith("tools/list")]
    assert listed == ["tools/list: 100 in 1 page(s)"], listed
    return took, report


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mcplab", required=True)
    ap.add_argument("--rawsrv", required=True)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    env = dict(os.environ, RAWSRV_TOOLS="100", MCPLAB_DATA_DIR=os.path.join(a.work, "data"))
    server = [sys.executable, a.rawsrv, "many-tools"]
    help_text = subprocess.run([a.mcplab, "check", "--help"], capture_output=True, text=True).stdout
    extra = []
    if "--readiness" in help_text:
        extra = ["--readiness", "claude", "--readiness", "openai"]
    # No `--host`, so nothing would be rendered anyway; `--no-render` says so, and keeps it so
    # if host verdicts are ever added here (with `--host`, check renders each app in Chromium).
    if "--no-render" in help_text:
        extra.append("--no-render")
    base, full = [], []
    report = None
    for i in range(a.warmup + a.runs):
        b = baseline(server, env)
        c, report = check(a.mcplab, server, extra, env)
        if i >= a.warmup:
            base.append(b)
            full.append(c)
    med = statistics.median
    print(f"- check flags: `--stdio … {' '.join(extra)}` ({len(report['eras'])} era(s), "
          f"{sum(len(e['rules']) for e in report['eras'])} rule checks, "
          f"{len(report['findings'])} findings)")
    print()
    print("| what | median | p90 | min | runs |")
    print("|---|---|---|---|---|")
    for name, xs in (("server start + tools/list (baseline)", base), ("`mcplab check`", full)):
        xs = sorted(xs)
        p90 = xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]
        print(f"| {name} | {med(xs) * 1000:.0f} ms | {p90 * 1000:.0f} ms | {xs[0] * 1000:.0f} ms | {len(xs)} |")
    over = med(full) - med(base)
    print()
    print(f"**check's own time beyond the server's start: {over * 1000:.0f} ms** (budget: under 1,000 ms)")


if __name__ == "__main__":
    main()
