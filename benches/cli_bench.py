#!/usr/bin/env python3
"""Measurement core of benches/cli.sh (run that, not this): wall time and peak RSS of
`mcplab tools list|call` and of the official Inspector's CLI against server-everything
over stdio and streamable HTTP, plus the bare server baselines. Standard library only.

Wall time: time.perf_counter_ns() from just before posix_spawn() to wait4() returning,
runs interleaved round-robin across cases so drift hits every case alike; the timed
runs are not sampled (no /proc polling) so they are not disturbed.

Server stop: mcplab's one-shot CLI closes a stdio server's stdin and SIGTERMs its group if it
has not exited 200 ms later; the Inspector's SDK waits up to 2 s. Whole runs are compared
under mcplab's policy: the "-stop" baseline applies it in the harness, and the Inspector's
"stopped like mcplab" rows run the server through benches/stop_like_mcplab.sh (whose own cost
the "-wrap" baseline shows). The rows with each tool's own policy are kept, labelled.

Memory, in separate runs:
  * "own peak RSS": VmHWM of the client process itself, read from /proc/PID/status
    every ~0.5 ms until it exits; VmHWM only grows, so the last reading is its peak
    (up to the final half millisecond). Its stdio server child is a separate process
    and is not included.
  * "tree max RSS": GNU `time -f %M` around the client (the memory runs go through it):
    ru_maxrss from wait4, the largest peak RSS of the process OR of any descendant it
    waited for (a maximum, not a sum). For a stdio client that is usually the server's
    node process. (Not our own wait4: a spawned child's ru_maxrss includes the mm it had
    before exec, a copy of the ~20 MiB Python harness.)
"""

import argparse
import json
import math
import os
import shlex
import signal
import statistics
import subprocess
import sys
import time
import http.client
import select
from urllib.parse import urlparse

MIB = 1024.0


def spawn_and_wait(argv, env, poll=False, gnu_time=None, scratch=None):
    """Run argv with stdin and stderr on /dev/null and stdout on a pipe that is drained.
    Returns (wall_ms, ms_to_first_stdout_byte, exit_status, tree_max_kib, own_hwm_kib).

    With poll, argv runs under GNU time (`time -f %M -o FILE argv…`) and the VmHWM sampled is
    that of time's child, argv itself. The tree maximum then comes from GNU time, not from
    our own wait4: a child's ru_maxrss also counts the mm it had before exec, which for a
    process spawned by this (Python, ~20 MiB) harness is a copy of the harness."""
    tree_file = None
    if poll:
        tree_file = os.path.join(scratch, "time-M.txt")
        argv = [gnu_time, "-f", "%M", "-o", tree_file] + list(argv)
        me = os.path.basename(argv[5])[:15]
    else:
        me = os.path.basename(argv[0])[:15]
    r, w = os.pipe()
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
        (os.POSIX_SPAWN_DUP2, w, 1),
        (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0),
    ]
    own_hwm = first = None
    eof = False
    status_path = None
    t0 = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
    os.close(w)
    os.set_blocking(r, False)
    try:
        while True:
            if poll:
                try:
                    if status_path is None:
                        with open(f"/proc/{pid}/task/{pid}/children") as f:
                            kids = f.read().split()
                        if kids:
                            status_path = f"/proc/{kids[0]}/status"
                        else:
                            raise FileNotFoundError
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
    code = os.waitstatus_to_exitcode(status)
    tree = ru.ru_maxrss
    if tree_file:
        try:
            with open(tree_file) as f:
                tree = int(f.read().split()[-1])  # after any "Command exited with …" line
        except (OSError, ValueError, IndexError):
            tree = None
    return wall_ms, first_ms, code, tree, own_hwm


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
    "params": {"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "bench-baseline", "version": "0"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def request_for(method):
    if method == "list":
        return {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    return {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"message": "hi"}}}


MCPLAB_GRACE = 0.2  # the one-shot CLI's stop grace (crates/mcplab/src/session.rs)


def baseline_stdio(server_argv, env, method, grace=None):
    """Spawn the server, initialize, one request, then close stdin and wait for exit.
    With grace (mcplab's stop policy): if the server has not exited `grace` s after its stdin
    closed, SIGTERM its process group, and SIGKILL after another `grace`.
    Returns (ms to the response, ms to the server's exit)."""
    t0 = time.perf_counter_ns()
    p = subprocess.Popen(server_argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, start_new_session=True)

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
        if grace is None:
            p.wait(timeout=10)
        else:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    p.wait(timeout=grace)
                    break
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, sig)
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
            h["mcp-protocol-version"] = "2025-11-25"
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
    conn.request("DELETE", u.path, headers={"mcp-session-id": sid, "mcp-protocol-version": "2025-11-25"})
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
    ap.add_argument("--gnu-time", default="/usr/bin/time", help="GNU time, for the memory runs")
    ap.add_argument("--stop-wrapper", required=True, help="benches/stop_like_mcplab.sh")
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
    # The same, with the server stopped the way mcplab stops it (stdin EOF, 200 ms, SIGTERM)
    # by benches/stop_like_mcplab.sh ($STOP) instead of the Inspector's own 2 s wait.
    wrapped = [a.stop_wrapper] + server_cmd
    add("insp-stdio-list-stop", "inspector CLI, server stopped like mcplab", "stdio",
        f"$INSPECTOR --cli $STOP {disp_server} --method tools/list",
        insp + wrapped + ["--method", "tools/list"], "echo")
    add("insp-stdio-call-stop", "inspector CLI, server stopped like mcplab", "stdio",
        f"$INSPECTOR --cli $STOP {disp_server} --method tools/call --tool-name echo --tool-arg message=hi",
        insp + wrapped + ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi"], "Echo: hi")
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
    # stdio: "own" = close stdin and wait for the server to exit by itself (what the Inspector's
    # SDK does for its first 2 s); "stop" = mcplab's policy; "wrap" = through $STOP, waiting,
    # which prices the wrapper the Inspector's "stopped like mcplab" rows go through.
    base = {}
    for m in ("list", "call"):
        base[f"stdio-{m}"] = dict(transport="stdio", method=m, argv=server_cmd, grace=None, resp=[], exit=[], error=None)
        base[f"stdio-{m}-stop"] = dict(transport="stdio", method=m, argv=server_cmd, grace=MCPLAB_GRACE, resp=[], exit=[], error=None)
        base[f"stdio-{m}-wrap"] = dict(transport="stdio", method=m, argv=wrapped, grace=None, resp=[], exit=[], error=None)
        base[f"http-{m}"] = dict(transport="http", method=m, t=[], error=None)

    def run_base(b):
        if b["transport"] == "stdio":
            return baseline_stdio(b["argv"], env, b["method"], b["grace"])
        return baseline_http(a.url, b["method"])

    t_start = time.monotonic()
    load_start = loadavg()
    log = lambda s: print(s, file=sys.stderr, flush=True)

    # 1. Verify every command once (output captured) before timing anything.
    for c in cases:
        c["error"] = check_output(c["argv"], env, c["expect"])
        log(f"check {c['key']}: {'ok' if not c['error'] else 'FAILED: ' + c['error']}")
    for k, b in base.items():
        try:
            run_base(b)
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
            try:
                if b["transport"] == "stdio":
                    t_resp, t_exit = run_base(b)
                    if keep:
                        b["resp"].append(t_resp)
                        b["exit"].append(t_exit)
                else:
                    t = run_base(b)
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
            _, _, code, tree, hwm = spawn_and_wait(c["argv"], env, poll=True, gnu_time=a.gnu_time, scratch=a.work)
            if code == 0:
                if tree is not None:
                    c["tree"].append(tree)
                if hwm is not None:
                    c["hwm"].append(hwm)
        log(f"memory round {r + 1}/{a.rss_runs} {time.monotonic() - t_start:.0f}s")

    # ---- report --------------------------------------------------------------------
    med = statistics.median
    out = []
    w = out.append
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    def rel(path):
        r = os.path.relpath(path, root)
        return r if not r.startswith("..") else os.path.basename(path)

    OWN = "waits for the server to exit by itself"
    STOP = "mcplab's: stdin EOF, 200 ms, SIGTERM"
    w(f"{a.runs} timed runs per row after {a.warmup} warm-up rounds, all rows interleaved "
      f"round-robin; memory from {a.rss_runs} further runs per row.\n")
    w("| tool | transport | server stop | command | median ms to output | p90 ms to output | "
      "whole run, median ms | p90 ms | peak RSS MiB (own) | max RSS MiB (tree, `time %M`) |")
    w("|---|---|---|---|---:|---:|---:|---:|---:|---:|")
    labels = {"list": "tools/list", "call": "tools/call echo"}
    for k, b in base.items():
        label = labels[b["method"]]
        if b["transport"] == "stdio":
            what, stop = {
                None: (f"spawn server, initialize, {label}; close stdin, wait for exit", OWN),
                MCPLAB_GRACE: (f"spawn server, initialize, {label}; close stdin; SIGTERM after 200 ms", STOP),
            }[b["grace"]]
            if b["argv"] is not server_cmd:
                what, stop = f"the same through `$STOP`; close stdin, wait for exit", f"{STOP} (by `$STOP`)"
            if b["error"]:
                w(f"| baseline, no client | stdio | {stop} | {what} | ERROR: {b['error']} | | | | | |")
                continue
            w(f"| baseline, no client | stdio | {stop} | {what} | {fmt_ms(med(b['resp']))} | "
              f"{fmt_ms(p90(b['resp']))} | {fmt_ms(med(b['exit']))} | {fmt_ms(p90(b['exit']))} | — | — |")
        else:
            what = f"raw HTTP on one connection: initialize, initialized, {label}, DELETE"
            if b["error"]:
                w(f"| baseline, no client | HTTP | — | {what} | ERROR: {b['error']} | | | | | |")
                continue
            w(f"| baseline, no client | HTTP | — | {what} | — | — | {fmt_ms(med(b['t']))} | "
              f"{fmt_ms(p90(b['t']))} | — | — |")
    for c in cases:
        cmd = f"`{c['display']}`"
        if c["transport"] == "HTTP":
            stop = "—"
        elif c["tool"] == "mcplab":
            stop = STOP
        elif "stopped like mcplab" in c["tool"]:
            stop = f"{STOP} (by `$STOP`)"
        else:
            stop = "its SDK's: stdin EOF, waits up to 2 s, SIGTERM"
        if c["error"]:
            w(f"| {c['tool']} | {c['transport']} | {stop} | {cmd} | ERROR: {c['error']} | | | | | |")
            continue
        w(f"| {c['tool']} | {c['transport']} | {stop} | {cmd} | "
          f"{fmt_ms(med(c['first']) if c['first'] else None)} | {fmt_ms(p90(c['first']) if c['first'] else None)} | "
          f"{fmt_ms(med(c['times']))} | {fmt_ms(p90(c['times']))} | "
          f"{fmt_mib(max(c['hwm']) if c['hwm'] else None)} | "
          f"{fmt_mib(max(c['tree']) if c['tree'] else None)} |")
    w("")
    w(f"$NODE = `{rel(a.node)}`, $SE = `{rel(a.server)}`, "
      f"$INSPECTOR = `{rel(a.inspector)}` (run as `$NODE $INSPECTOR`), $STOP = `{rel(a.stop_wrapper)}`, "
      "$URL = `http://127.0.0.1:<free port>/mcp`; mcplab also gets `--data-dir <scratch>`. "
      "\"to output\": to the client's first byte on stdout (for a baseline row: to the response). "
      "\"whole run\": spawn to `wait4` (for a baseline row: to the server's exit). "
      "\"peak RSS (own)\": the client process's own VmHWM, its stdio server child "
      "excluded (largest of the memory runs). \"max RSS (tree)\": GNU time's %M (ru_maxrss), the "
      "largest single process in the tree, as GNU `time -f %M` prints it.")

    def case(key):
        c = next(c for c in cases if c["key"] == key)
        return None if c["error"] else c

    def m_total(key):
        c = case(key)
        return med(c["times"]) if c and c["times"] else None

    def m_first(key):
        c = case(key)
        return med(c["first"]) if c and c["first"] else None

    def own(key):
        c = case(key)
        return max(c["hwm"]) / MIB if c and c["hwm"] else None

    def bmed(k, field):
        b = base[k]
        return med(b[field]) if not b["error"] and b[field] else None

    def sub(x, y):
        return None if x is None or y is None else x - y

    w("")
    w("Derived (from the medians above). Targets: our overhead beyond the server's start-up "
      "under 10 ms, and under 10 MiB resident.\n")
    w("| measure | tools list | tools call |")
    w("|---|---:|---:|")
    derived = (
        ("**To the printed answer**", None, "head"),
        ("mcplab stdio overhead to the answer: to output − baseline to response (ms)",
         lambda m: sub(m_first(f"mcplab-stdio-{m}"), bmed(f"stdio-{m}", "resp")), "ms"),
        ("inspector ÷ mcplab, time to output, stdio", lambda m: _ratio(m_first(f"insp-stdio-{m}"), m_first(f"mcplab-stdio-{m}")), "x"),
        ("mcplab HTTP, time to output (ms)", lambda m: m_first(f"mcplab-http-{m}"), "ms"),
        ("inspector ÷ mcplab, time to output, HTTP", lambda m: _ratio(m_first(f"insp-http-{m}"), m_first(f"mcplab-http-{m}")), "x"),
        ("**Whole run, every server stopped mcplab's way** (stdio: stdin EOF, 200 ms, SIGTERM)", None, "head"),
        ("mcplab stdio overhead, whole run: median − baseline stopped the same way (ms)",
         lambda m: sub(m_total(f"mcplab-stdio-{m}"), bmed(f"stdio-{m}-stop", "exit")), "ms"),
        ("inspector (server stopped by `$STOP`) ÷ mcplab, whole run, stdio",
         lambda m: _ratio(m_total(f"insp-stdio-{m}-stop"), m_total(f"mcplab-stdio-{m}")), "x"),
        ("`$STOP`'s own cost: baseline through it − baseline stopped in the harness (ms)",
         lambda m: sub(bmed(f"stdio-{m}-wrap", "exit"), bmed(f"stdio-{m}-stop", "exit")), "ms"),
        ("mcplab HTTP, whole run = its overhead (ms)", lambda m: m_total(f"mcplab-http-{m}"), "ms"),
        ("mcplab HTTP − raw-HTTP baseline (ms)",
         lambda m: sub(m_total(f"mcplab-http-{m}"), bmed(f"http-{m}", "t")), "ms"),
        ("inspector ÷ mcplab, whole run, HTTP (no server to stop)", lambda m: _ratio(m_total(f"insp-http-{m}"), m_total(f"mcplab-http-{m}")), "x"),
        ("**Memory**", None, "head"),
        ("mcplab own peak RSS, stdio (MiB)", lambda m: own(f"mcplab-stdio-{m}"), "mib"),
        ("mcplab own peak RSS, HTTP (MiB)", lambda m: own(f"mcplab-http-{m}"), "mib"),
        ("inspector ÷ mcplab, own peak RSS, stdio", lambda m: _ratio(own(f"insp-stdio-{m}"), own(f"mcplab-stdio-{m}")), "x"),
        ("inspector ÷ mcplab, own peak RSS, HTTP", lambda m: _ratio(own(f"insp-http-{m}"), own(f"mcplab-http-{m}")), "x"),
        ("**Each tool's own stop policy (not like for like: mcplab SIGTERMs after 200 ms, the others wait)**", None, "head"),
        ("mcplab stdio whole run − baseline waiting for the server's own exit (ms)",
         lambda m: sub(m_total(f"mcplab-stdio-{m}"), bmed(f"stdio-{m}", "exit")), "ms"),
        ("inspector (its own 2 s wait) ÷ mcplab, whole run, stdio",
         lambda m: _ratio(m_total(f"insp-stdio-{m}"), m_total(f"mcplab-stdio-{m}")), "x"),
    )
    for label, fn, unit in derived:
        if unit == "head":
            w(f"| {label} | | |")
            continue
        vals = []
        for m in ("list", "call"):
            v = fn(m)
            if v is None:
                vals.append("—")
            elif unit == "x":
                vals.append(f"{v:.1f}×")
            elif v < 0:
                vals.append(f"≤ 0 ({v:.1f})")
            else:
                vals.append(f"{v:.1f}")
        w(f"| {label} | {vals[0]} | {vals[1]} |")
    w("")
    w("\"≤ 0 (x)\": a difference of two medians that came out negative. A client cannot answer "
      "before its server does, nor a wrapper cost less than nothing: that is the noise of the "
      "two medians (the server's own start varies by more than the difference), not a gain.")
    w("")
    w(f"Measurement time: {time.monotonic() - t_start:.0f} s; load average (1/5/15 min) "
      f"{load_start} when the measuring began, {loadavg()} when it ended (2 cores shared: a "
      f"load well above 2 inflates every time above).")
    print("\n".join(out))
    failed = any(c["error"] for c in cases) or any(b["error"] for b in base.values())
    return 1 if failed else 0


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def _ratio(x, y):
    return None if x is None or y is None or y == 0 else x / y


if __name__ == "__main__":
    sys.exit(main())
