#!/usr/bin/env python3
"""Memory under attack: points the `mcplab` CLI and `mcplab serve` (driven through its HTTP API,
with a live /api/events reader standing in for the browser) at benches/hostile_server.py in
each mode and reports peak RSS, and for serve the RSS after disconnecting and clearing the
traffic, twice in a row (steady means the second round ends where the first did).
Standard library only; loopback only. Run it through benches/hostile.sh.
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "hostile_server.py")
MODES = [
    ("endless-body", "http", "endless JSON body"),
    ("endless-sse", "http", "endless SSE line"),
    ("notify-flood", "stdio", "1,000 × 1 MB notifications"),
    ("stderr-flood", "stdio", "250 × 10 MB stderr lines"),
]


def status_kib(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def mib(kib):
    return "—" if kib is None else f"{kib / 1024:.0f}"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HttpTarget:
    """A hostile HTTP server in its own process."""

    def __init__(self, py, mode):
        self.proc = subprocess.Popen([py, SERVER, "http", mode, "0"], stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        self.url = line.split()[-1]

    def stop(self):
        self.proc.kill()
        self.proc.wait()


def run_cli(binary, py, mode, kind, data_dir):
    """One CLI run: (peak RSS KiB, exit code, seconds, last stderr line)."""
    target = HttpTarget(py, mode) if kind == "http" else None
    if target:
        argv = [binary, "--url", target.url, "--oauth", "off"]
    else:
        argv = [binary, "--stdio", f"{py} {SERVER} stdio {mode}"]
    argv += ["--timeout", "300", "tools", "list"]
    env = dict(os.environ, MCPLAB_DATA_DIR=data_dir)
    started = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    # Drained as it comes (a full pipe would block the CLI's log output), keeping the last lines.
    tail = []

    def drain():
        for line in proc.stderr:
            tail.append(line)
            del tail[:-20]

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    peak = 0
    while proc.poll() is None:
        peak = max(peak, status_kib(proc.pid, "VmHWM") or 0)
        time.sleep(0.005)
    seconds = time.monotonic() - started
    reader.join(timeout=10)
    err = b"".join(tail).decode(errors="replace").strip().splitlines()
    if target:
        target.stop()
    return peak, proc.returncode, seconds, (err[-1] if err else "")


class Serve:
    def __init__(self, binary, data_dir):
        self.port = free_port()
        env = dict(os.environ, MCPLAB_DATA_DIR=data_dir)
        self.proc = subprocess.Popen(
            [binary, "serve", "--no-open", "--port", str(self.port)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True,
        )
        self.token = None
        # The printed URL carries a one-time login code; scripts use the launch secret,
        # written to the data dir before the URL is printed.
        for line in self.proc.stdout:
            if line.startswith("open http"):
                with open(os.path.join(data_dir, "launch.json")) as f:
                    self.token = json.load(f)["secret"]
                break
        if self.token is None:
            raise SystemExit("serve exited without printing its URL")
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        self.events = threading.Thread(target=self.read_events, daemon=True)
        self.events.start()

    def api(self, method, path, body=None, timeout=600):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}/api{path}", data=data, method=method)
        req.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return resp.status, resp.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def read_events(self):
        """The browser's event stream, read as fast as it comes."""
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/events")
        req.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(req) as resp:
                while resp.read(65536):
                    pass
        except Exception:
            pass

    def rss(self):
        return status_kib(self.proc.pid, "VmRSS")

    def hwm(self):
        return status_kib(self.proc.pid, "VmHWM")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def run_serve(binary, py, mode, kind, data_dir, rounds, settle):
    """(idle RSS, peak RSS, [RSS after each round's disconnect], outcome) in KiB."""
    serve = Serve(binary, data_dir)
    time.sleep(settle)
    idle = serve.rss()
    target = HttpTarget(py, mode) if kind == "http" else None
    if target:
        config = {"name": "hostile", "type": "http", "url": target.url, "oauth": {"disabled": True}}
    else:
        config = {"name": "hostile", "type": "stdio", "command": py, "args": [SERVER, "stdio", mode]}
    serve.api("POST", "/servers", config)
    after = []
    outcome = ""
    for _ in range(rounds):
        status, body = serve.api("POST", "/servers/hostile/connect")
        if status != 200:
            outcome = f"connect: HTTP {status} {body[:200]!r}"
            break
        status, body = serve.api("GET", "/servers/hostile/tools")
        outcome = body.decode(errors="replace")[:160] if status != 200 else "tools listed"
        serve.api("POST", "/servers/hostile/disconnect")
        serve.api("DELETE", "/servers/hostile/traffic")
        time.sleep(settle)
        after.append(serve.rss())
    peak = serve.hwm()
    serve.stop()
    if target:
        target.stop()
    return idle, peak, after, outcome


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--settle", type=float, default=2.0, help="seconds before reading RSS")
    ap.add_argument("--only", help="run only this mode")
    a = ap.parse_args()
    py = sys.executable
    rows = []
    for mode, kind, label in MODES:
        if a.only and a.only != mode:
            continue
        with tempfile.TemporaryDirectory(prefix="mcplab-hostile-") as scratch:
            cli = run_cli(a.bin, py, mode, kind, os.path.join(scratch, "cli"))
            print(f"  {mode}: CLI peak {mib(cli[0])} MiB, exit {cli[1]}, {cli[2]:.1f} s", file=sys.stderr, flush=True)
            srv = run_serve(a.bin, py, mode, kind, os.path.join(scratch, "serve"), a.rounds, a.settle)
            print(f"  {mode}: serve peak {mib(srv[1])} MiB, after {[mib(x) for x in srv[2]]}", file=sys.stderr, flush=True)
        rows.append((label, kind, cli, srv))
    print("| attack | transport | CLI peak RSS MiB | CLI exit, time | CLI says | serve idle RSS MiB | serve peak RSS MiB | serve RSS after disconnect + clear, per round MiB |")
    print("|---|---|---|---|---|---|---|---|")
    for label, kind, cli, srv in rows:
        said = cli[3].replace("|", "\\|")[:140]
        after = " → ".join(mib(x) for x in srv[2])
        print(f"| {label} | {kind} | {mib(cli[0])} | {cli[1]}, {cli[2]:.1f} s | {said} | {mib(srv[0])} | {mib(srv[1])} | {after} |")
    for label, _, _, srv in rows:
        print(f"\nserve, {label}: {srv[3]}", file=sys.stderr)


if __name__ == "__main__":
    main()
