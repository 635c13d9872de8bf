#!/usr/bin/env python3
"""Measurement core of benches/cli.sh (run that, not this): wall time and peak RSS of
`mcplab tools list|call` and of the official Inspector's CLI against server-everything
over stdio and streamable HTTP, plus the bare server baselines. Standard library only.

Wall time: time.perf_counter_ns() from just before posix_spawn() to wait4() returning,
runs interleaved round-robin across cases so drift hits every case alike; the timed
runs are not sampled (no /proc polling) so they are not disturbed.

Memory, in separate runs:
  * "own peak RSS": VmHWM of the client process itself, read from /proc/PID/status
    every ~0.5 ms until it exits; VmHWM only grows, so the last reading is its peak
    (up to the final half millisecond). Its stdio server child is a separate process
    and is not included.
  * "tree max RSS": ru_maxrss from wait4(), which is exactly what GNU `time -f %M`
    reports: the largest peak RSS of the process OR any descendant it waited for (a
    maximum, not a sum). For a stdio client that is usually the server's node process.
"""

import argparse
import json
import math
import os
import shlex
import statistics
import subprocess
import sys
import time
import http.client
import select
from urllib.parse import urlparse

MIB = 1024.0


def spawn_and_wait(argv, env, poll=False):
    """Run argv with stdin and stderr on /dev/null and stdout on a pipe that is drained.
    Returns (wall_ms, ms_to_first_stdout_byte, exit_status, tree_max_kib, own_hwm_kib)."""
    r, w = os.pipe()
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
        (os.POSIX_SPAWN_DUP2, w, 1),
        (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0),
    ]
    own_hwm = first = None
    eof = False
    status_path = None
    me = os.path.basename(argv[0])[:15]
    t0 = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
    os.close(w)
    os.set_blocking(r, False)
    try:
        while True:
            if poll:
                status_path = status_path or f"/proc/{pid}/status"
                try:
                    with open(status_path, "rb") as f:
                        text = f.read().decode("ascii", "replace")
                    name = hwm = None
                    for line in text.splitlines():
                        if line.startswith("Name:"):
                            name = line.split(None, 1)[1].strip()
                        elif line.startswith("VmHWM:"):
                            hwm = int(line.split()[1])
                    # Only trust readings taken after exec (Name is the program's).
                    if hwm is not None and name == me:
                        own_hwm = hwm
                except OSError:
                    pass
            if not eof:
                ready, _, _ = select.select([r], [], [], 0.0005 if poll else 120)
                if not ready and not poll:
                    raise TimeoutError(f"no output or exit in 120 s: {argv}")
                if ready:
                    data = os.read(r, 65536)
                    if data and first is None:
                        first = time.perf_counter_ns()
                    if not data:
                        eof = True
                if not poll and not eof:
                    continue
            elif poll:
                time.sleep(0.0005)
            if poll:
                done, status, ru = os.wait4(pid, os.WNOHANG)
                if done:
                    break
            else:
                _, status, ru = os.wait4(pid, 0)
                break
    finally:
        os.close(r)
    t1 = time.perf_counter_ns()
    wall_ms = (t1 - t0) / 1e6
    first_ms = None if first is None else (first - t0) / 1e6
    return wall_ms, first_ms, os.waitstatus_to_exitcode(status), ru.ru_maxrss, own_hwm


def check_output(argv, env, expect):
    """One verification run with output captured; returns None or an error string."""
    try:
        p = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "timed out after 60 s"
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode != 0:
        return f"exit {p.returncode}: {(err or out).strip()[-400:]}"
    if expect not in out:
        return f"output lacks {expect!r}: {out.strip()[:300]}"
    return None


# --- in-harness baselines (no client process at all) -------------------------------

INIT = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "bench-baseline", "version": "0"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def request_for(method):
    if method == "list":
        return {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    return {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"message": "hi"}}}


def baseline_stdio(server_argv, env, method):
    """Spawn the server, initialize, one request, then close stdin and wait for exit.
    Returns (ms to the response, ms to the server's exit)."""
    t0 = time.perf_counter_ns()
    p = subprocess.Popen(server_argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)

    def send(*msgs):
        p.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in msgs))
        p.stdin.flush()

    def read_until(id_):
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError("server closed stdout")
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if msg.get("id") == id_:
                if "error" in msg:
                    raise RuntimeError(f"server error: {msg['error']}")
                return msg

    try:
        send(INIT)
        read_until(1)
        send(INITIALIZED, request_for(method))
        read_until(2)
        t_resp = (time.perf_counter_ns() - t0) / 1e6
        p.stdin.close()
        p.wait(timeout=10)
        t_exit = (time.perf_counter_ns() - t0) / 1e6
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return t_resp, t_exit


def baseline_http(url, method):
    """Raw HTTP on one keep-alive connection: initialize, initialized, one request,
    DELETE the session. The server's own request handling, no client process."""
    u = urlparse(url)
    t0 = time.perf_counter_ns()
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    hdrs = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

    def post(msg, sid=None):
        h = dict(hdrs)
        if sid:
            h["mcp-session-id"] = sid
            h["mcp-protocol-version"] = "2025-06-18"
        conn.request("POST", u.path, body=json.dumps(msg), headers=h)
        r = conn.getresponse()
        body = r.read()
        if r.status >= 300:
            raise RuntimeError(f"HTTP {r.status}: {body[:200]!r}")
        return r, body

    r, _ = post(INIT)
    sid = r.getheader("mcp-session-id")
    post(INITIALIZED, sid)
    _, body = post(request_for(method), sid)
    if b'"id":2' not in body.replace(b" ", b""):
        raise RuntimeError(f"unexpected response {body[:200]!r}")
    conn.request("DELETE", u.path, headers={"mcp-session-id": sid, "mcp-protocol-version": "2025-06-18"})
    conn.getresponse().read()
    conn.close()
    return (time.perf_counter_ns() - t0) / 1e6


# --- statistics / formatting -------------------------------------------------------

def p90(xs):
    s = sorted(xs)
    return s[max(0, math.ceil(0.9 * len(s)) - 1)]


def fmt_ms(x):
    return "—" if x is None else f"{x:.1f}"


def fmt_mib(kib):
    return "—" if kib is None else f"{kib / MIB:.1f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mcplab", required=True)
    ap.add_argument("--node", required=True)
    ap.add_argument("--server", required=True, help="server-everything dist/index.js")
    ap.add_argument("--inspector", required=True, help="inspector launcher build/index.js")
    ap.add_argument("--url", required=True, help="running server-everything streamableHttp /mcp URL")
    ap.add_argument("--work", required=True, help="scratch directory (data dirs)")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--rss-runs", type=int, default=5)
    a = ap.parse_args()

    env = dict(os.environ)
    server_cmd = [a.node, a.server, "stdio"]
    server_line = " ".join(shlex.quote(x) for x in server_cmd)
    data = os.path.join(a.work, "mcplab-data")
    os.makedirs(data, exist_ok=True)

    # Display forms of the commands ($NODE, $SE, $INSPECTOR, $URL are explained below the table).
    disp_server = '$NODE $SE stdio'
    mc = [a.mcplab, "--data-dir", data]
    insp = [a.node, a.inspector, "--cli"]

    cases = []  # (key, tool, transport, display, argv, expect)

    def add(key, tool, transport, display, argv, expect):
        cases.append(dict(key=key, tool=tool, transport=transport, display=display,
                          argv=argv, expect=expect, times=[], first=[], hwm=[], tree=[], error=None))

    add("mcplab-stdio-list", "mcplab", "stdio", f'mcplab --stdio "{disp_server}" tools list',
        mc + ["--stdio", server_line, "tools", "list"], "echo")
    add("mcplab-stdio-call", "mcplab", "stdio", f'mcplab --stdio "{disp_server}" tools call echo -a message=hi',
        mc + ["--stdio", server_line, "tools", "call", "echo", "-a", "message=hi"], "Echo: hi")
    add("insp-stdio-list", "inspector CLI", "stdio", f"$INSPECTOR --cli {disp_server} --method tools/list",
        insp + server_cmd + ["--method", "tools/list"], "echo")
    add("insp-stdio-call", "inspector CLI", "stdio",
        f"$INSPECTOR --cli {disp_server} --method tools/call --tool-name echo --tool-arg message=hi",
        insp + server_cmd + ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi"], "Echo: hi")
    add("mcplab-http-list", "mcplab", "HTTP", "mcplab --url $URL tools list",
        mc + ["--url", a.url, "tools", "list"], "echo")
    add("mcplab-http-call", "mcplab", "HTTP", "mcplab --url $URL tools call echo -a message=hi",
        mc + ["--url", a.url, "tools", "call", "echo", "-a", "message=hi"], "Echo: hi")
    add("insp-http-list", "inspector CLI", "HTTP", "$INSPECTOR --cli $URL --transport http --method tools/list",
        insp + [a.url, "--transport", "http", "--method", "tools/list"], "echo")
    add("insp-http-call", "inspector CLI", "HTTP",
        "$INSPECTOR --cli $URL --transport http --method tools/call --tool-name echo --tool-arg message=hi",
        insp + [a.url, "--transport", "http", "--method", "tools/call", "--tool-name", "echo",
                "--tool-arg", "message=hi"], "Echo: hi")

    # Baselines, measured inside this process (zero client start-up).
    base = {
        "stdio-list": dict(resp=[], exit=[], error=None),
        "stdio-call": dict(resp=[], exit=[], error=None),
        "http-list": dict(t=[], error=None),
        "http-call": dict(t=[], error=None),
    }

    t_start = time.monotonic()
    log = lambda s: print(s, file=sys.stderr, flush=True)

    # 1. Verify every command once (output captured) before timing anything.
    for c in cases:
        c["error"] = check_output(c["argv"], env, c["expect"])
        log(f"check {c['key']}: {'ok' if not c['error'] else 'FAILED: ' + c['error']}")
    for k in base:
        transport, method = k.split("-")
        try:
            if transport == "stdio":
                baseline_stdio(server_cmd, env, method)
            else:
                baseline_http(a.url, method)
            log(f"check baseline {k}: ok")
        except Exception as e:  # noqa: BLE001
            base[k]["error"] = str(e)
            log(f"check baseline {k}: FAILED: {e}")

    live = [c for c in cases if not c["error"]]

    # 2. Timed runs, interleaved round-robin; the first `warmup` rounds are discarded.
    for r in range(a.warmup + a.runs):
        keep = r >= a.warmup
        for k, b in base.items():
            if b["error"]:
                continue
            transport, method = k.split("-")
            try:
                if transport == "stdio":
                    t_resp, t_exit = baseline_stdio(server_cmd, env, method)
                    if keep:
                        b["resp"].append(t_resp)
                        b["exit"].append(t_exit)
                else:
                    t = baseline_http(a.url, method)
                    if keep:
                        b["t"].append(t)
            except Exception as e:  # noqa: BLE001
                b["error"] = str(e)
        for c in live:
            if c["error"]:
                continue
            ms, first, code, _, _ = spawn_and_wait(c["argv"], env)
            if code != 0:
                c["error"] = f"exit {code} in timed run {r}"
            elif keep:
                c["times"].append(ms)
                if first is not None:
                    c["first"].append(first)
        log(f"round {r + 1}/{a.warmup + a.runs} {'(warm-up)' if not keep else ''} "
            f"{time.monotonic() - t_start:.0f}s")

    # 3. Memory runs (sampled; wall times of these runs are not used).
    for r in range(a.rss_runs):
        for c in live:
            if c["error"]:
                continue
            _, _, code, tree, hwm = spawn_and_wait(c["argv"], env, poll=True)
            if code == 0:
                c["tree"].append(tree)
                if hwm is not None:
                    c["hwm"].append(hwm)
        log(f"memory round {r + 1}/{a.rss_runs} {time.monotonic() - t_start:.0f}s")

    # ---- report --------------------------------------------------------------------
    out = []
    w = out.append
    w(f"Runs: {a.runs} timed per row (after {a.warmup} warm-up rounds), interleaved; "
      f"memory from {a.rss_runs} further runs per row.\n")
    w("| tool | transport | command | median ms | p90 ms | peak RSS MiB (own) | max RSS MiB (tree, `time %M`) |")
    w("|---|---|---|---:|---:|---:|---:|")
    for k, label in (("stdio-list", "tools/list"), ("stdio-call", "tools/call echo")):
        b = base[k]
        if b["error"]:
            w(f"| baseline (no client) | stdio | server start → {label} response | ERROR: {b['error']} | | | |")
            continue
        w(f"| baseline (no client) | stdio | server start → {label} response | "
          f"{fmt_ms(statistics.median(b['resp']))} | {fmt_ms(p90(b['resp']))} | — | — |")
        w(f"| baseline (no client) | stdio | … → stdin closed → server exited | "
          f"{fmt_ms(statistics.median(b['exit']))} | {fmt_ms(p90(b['exit']))} | — | — |")
    for k, label in (("http-list", "tools/list"), ("http-call", "tools/call echo")):
        b = base[k]
        if b["error"]:
            w(f"| baseline (no client) | HTTP | raw HTTP: initialize, {label}, DELETE | ERROR: {b['error']} | | | |")
            continue
        w(f"| baseline (no client) | HTTP | raw HTTP: initialize, {label}, DELETE | "
          f"{fmt_ms(statistics.median(b['t']))} | {fmt_ms(p90(b['t']))} | — | — |")
    for c in cases:
        cmd = f"`{c['display']}`"
        if c["error"]:
            w(f"| {c['tool']} | {c['transport']} | {cmd} | ERROR: {c['error']} | | | |")
            continue
        w(f"| {c['tool']} | {c['transport']} | {cmd} | {fmt_ms(statistics.median(c['times']))} | "
          f"{fmt_ms(p90(c['times']))} | {fmt_mib(max(c['hwm']) if c['hwm'] else None)} | "
          f"{fmt_mib(max(c['tree']) if c['tree'] else None)} |")
    w("")
    w(f"$NODE = `{a.node}`, $SE = `{a.server}`,")
    w(f"$INSPECTOR = `{a.inspector}` (run as `$NODE $INSPECTOR`), $URL = `{a.url}`;")
    w("mcplab runs with `--data-dir` in a scratch directory. Peak RSS (own) is the client "
      "process's VmHWM, its server child excluded; tree max is wait4's ru_maxrss, the largest "
      "single process in the tree.")

    # Summary: overhead vs targets and ratios vs the inspector.
    def med(key):
        c = next(c for c in cases if c["key"] == key)
        return None if c["error"] or not c["times"] else statistics.median(c["times"])

    def hwm(key):
        c = next(c for c in cases if c["key"] == key)
        return max(c["hwm"]) if c["hwm"] else None

    w("")
    w("Summary (medians; targets: overhead beyond the server's start-up < 10 ms, < 10 MiB resident):\n")
    w("| measure | tools list | tools call |")
    w("|---|---:|---:|")
    rows = []
    for label, fn in (
        ("mcplab stdio − baseline to server exit (ms)",
         lambda m: (med(f"mcplab-stdio-{m}") - statistics.median(base[f"stdio-{m}"]["exit"]))
         if med(f"mcplab-stdio-{m}") is not None and not base[f"stdio-{m}"]["error"] else None),
        ("mcplab stdio − baseline to response (ms; counts the server's shutdown as ours)",
         lambda m: (med(f"mcplab-stdio-{m}") - statistics.median(base[f"stdio-{m}"]["resp"]))
         if med(f"mcplab-stdio-{m}") is not None and not base[f"stdio-{m}"]["error"] else None),
        ("mcplab HTTP, whole run (ms)", lambda m: med(f"mcplab-http-{m}")),
        ("mcplab HTTP − raw-HTTP baseline (ms)",
         lambda m: (med(f"mcplab-http-{m}") - statistics.median(base[f"http-{m}"]["t"]))
         if med(f"mcplab-http-{m}") is not None and not base[f"http-{m}"]["error"] else None),
        ("mcplab own peak RSS, stdio (MiB)", lambda m: None if hwm(f"mcplab-stdio-{m}") is None else hwm(f"mcplab-stdio-{m}") / MIB),
        ("mcplab own peak RSS, HTTP (MiB)", lambda m: None if hwm(f"mcplab-http-{m}") is None else hwm(f"mcplab-http-{m}") / MIB),
        ("inspector ÷ mcplab wall time, stdio", lambda m: _ratio(med(f"insp-stdio-{m}"), med(f"mcplab-stdio-{m}"))),
        ("inspector ÷ mcplab wall time, HTTP", lambda m: _ratio(med(f"insp-http-{m}"), med(f"mcplab-http-{m}"))),
        ("inspector ÷ mcplab own peak RSS, stdio", lambda m: _ratio(hwm(f"insp-stdio-{m}"), hwm(f"mcplab-stdio-{m}"))),
        ("inspector ÷ mcplab own peak RSS, HTTP", lambda m: _ratio(hwm(f"insp-http-{m}"), hwm(f"mcplab-http-{m}"))),
    ):
        vals = []
        for m in ("list", "call"):
            try:
                v = fn(m)
            except Exception:  # noqa: BLE001
                v = None
            vals.append("—" if v is None else (f"{v:.1f}" if "÷" not in label else f"{v:.1f}×"))
        w(f"| {label} | {vals[0]} | {vals[1]} |")
    w("")
    w(f"Total measurement time: {time.monotonic() - t_start:.0f} s.")
    print("\n".join(out))
    failed = any(c["error"] for c in cases) or any(b["error"] for b in base.values())
    return 1 if failed else 0


def _ratio(x, y):
    return None if x is None or y is None or y == 0 else x / y


if __name__ == "__main__":
    sys.exit(main())
