#!/usr/bin/env python3
"""Measurement core of benches/tap.sh (run that, not this): what `mcplab tap` adds between a
host and a stdio server. Standard library only.

Latency: one host (this script) keeps three sessions open at once — the server run directly,
the server through `mcplab tap --record FILE`, and through a tap that sends its frames live to
a running `mcplab serve` — and sends `tools/call echo` to them in turn (round robin, so load
drift hits every row alike), timing each request until its answer line arrives
(time.perf_counter_ns). A round trip is two frames (request, answer); the tap's cost per frame
is half the difference of the medians against the direct row.

Memory: VmHWM (peak RSS) of the tap process itself, read from /proc after the latency run,
and while a hostile server floods it: one endless line (no newline), and a stream of 1 MiB
lines, each read and discarded by the host as fast as it can.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

MIB = 1024 * 1024


def vm_hwm_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


class Session:
    """A server process (maybe a tap) on pipes; one request at a time."""

    def __init__(self, name, argv, env):
        self.name = name
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=env, bufsize=0)
        self.reader = self.proc.stdout
        self.buf = b""
        self.next_id = 1
        self.times = []

    def line(self):
        while b"\n" not in self.buf:
            chunk = os.read(self.reader.fileno(), 1 << 20)
            if not chunk:
                raise RuntimeError(f"{self.name}: the server closed its output")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def request(self, method, params, timed=True):
        rid = self.next_id
        self.next_id += 1
        frame = json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        t0 = time.perf_counter_ns()
        self.proc.stdin.write(frame.encode() + b"\n")
        while True:
            answer = json.loads(self.line())
            if answer.get("id") == rid:
                break
        if timed:
            self.times.append((time.perf_counter_ns() - t0) / 1000.0)
        return answer

    def handshake(self):
        self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                    "clientInfo": {"name": "tap-bench", "version": "1"}}, False)
        self.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def cpu_s(pid):
    """User + system CPU seconds of a whole process (all its threads) so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100.0 * (len(values) - 1))))]


def start_inspector(mcplab, data):
    proc = subprocess.Popen([mcplab, "--no-open", "--port", "0", "--data-dir", data],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    launch = os.path.join(data, "launch.json")
    deadline = time.monotonic() + 30
    while not os.path.exists(launch):
        if time.monotonic() > deadline or proc.poll() is not None:
            raise RuntimeError("mcplab serve did not start")
        time.sleep(0.05)
    return proc


def latency(args):
    env = dict(os.environ)
    live_env = dict(env, MCPLAB_DATA_DIR=os.path.join(args.work, "live"))
    inspector = start_inspector(args.mcplab, live_env["MCPLAB_DATA_DIR"])
    server = [args.mcplab, "demo-server"]
    record = os.path.join(args.work, "rec.jsonl")
    sessions = [
        Session("direct", server, env),
        Session("tap, recording to a file", [args.mcplab, "tap", "--no-live", "--record", record, "--"] + server, env),
        Session("tap, live to a running inspector", [args.mcplab, "tap", "--"] + server, live_env),
    ]
    rows = []
    try:
        for s in sessions:
            s.handshake()
        cpu = []
        for size in args.sizes:
            message = "x" * size
            for s in sessions:
                s.times = []
            before = {s.name: cpu_s(s.proc.pid) for s in sessions}
            before["inspector"] = cpu_s(inspector.pid)
            for i in range(args.warmup + args.requests):
                for s in sessions:
                    s.request("tools/call", {"name": "echo", "arguments": {"message": message}},
                              timed=i >= args.warmup)
            frames = 2 * (args.warmup + args.requests)
            for s in sessions[1:]:
                used = cpu_s(s.proc.pid) - before[s.name]
                cpu.append((s.name, size, frames, used * 1e6 / frames))
            used = cpu_s(inspector.pid) - before["inspector"]
            cpu.append(("the inspector taking the live tap's frames", size, frames, used * 1e6 / frames))
            base = statistics.median(sessions[0].times)
            for s in sessions:
                med = statistics.median(s.times)
                rows.append({
                    "case": s.name, "size": size, "n": len(s.times), "median_us": med,
                    "p90_us": pct(s.times, 90), "p99_us": pct(s.times, 99),
                    "added_per_frame_us": (med - base) / 2.0 if s is not sessions[0] else None,
                })
        hwm = {s.name: vm_hwm_kib(s.proc.pid) for s in sessions}
        hwm["cpu"] = cpu
    finally:
        for s in sessions:
            try:
                s.close()
            except Exception:
                s.proc.kill()
        inspector.terminate()
        inspector.wait(timeout=30)
    return rows, hwm


FLOODS = {
    # One line that never ends: the tap keeps only the first --max-frame bytes of it.
    "one endless line (no newline)": "import sys\nb=b'x'*(1<<20)\nfor _ in range({mib}): sys.stdout.buffer.write(b)\n",
    # Whole frames, 1 MiB each, as fast as the pipe takes them.
    "1 MiB lines": "import sys\nb=b'{{\"p\":\"'+b'x'*((1<<20)-10)+b'\"}}\\n'\nfor _ in range({mib}): sys.stdout.buffer.write(b)\n",
}


def flood(args):
    rows = []
    for name, code in FLOODS.items():
        record = os.path.join(args.work, "flood.jsonl")
        argv = [args.mcplab, "tap", "--no-live", "--record", record, "--", sys.executable, "-c",
                code.format(mib=args.flood_mib)]
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, bufsize=0)
        got = 0
        peak = 0
        while True:
            chunk = os.read(proc.stdout.fileno(), 1 << 20)
            if not chunk:
                break
            got += len(chunk)
            if got % (32 * MIB) < len(chunk):
                try:
                    peak = max(peak, vm_hwm_kib(proc.pid))
                except FileNotFoundError:
                    pass
        try:
            peak = max(peak, vm_hwm_kib(proc.pid))
        except FileNotFoundError:
            pass
        proc.stdin.close()
        proc.wait(timeout=60)
        rows.append({"flood": name, "passed_mib": got / MIB, "tap_vmhwm_mib": peak / 1024.0,
                     "record_mib": sum(os.path.getsize(os.path.join(args.work, f))
                                       for f in os.listdir(args.work) if f.startswith("flood.jsonl")) / MIB})
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mcplab", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--sizes", type=int, nargs="+", default=[16, 65536])
    ap.add_argument("--flood-mib", type=int, default=1024)
    args = ap.parse_args()

    rows, hwm = latency(args)
    cpu = hwm.pop("cpu")
    print("### Latency per request (`tools/call echo`, round trip, µs)\n")
    print("| case | message bytes | requests | median | p90 | p99 | added per frame (median) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        added = "—" if r["added_per_frame_us"] is None else f"{r['added_per_frame_us']:.1f} µs"
        print(f"| {r['case']} | {r['size']} | {r['n']} | {r['median_us']:.1f} | {r['p90_us']:.1f} | "
              f"{r['p99_us']:.1f} | {added} |")
    print("\n### CPU time per frame (user + system, all threads; load-independent)\n")
    print("| process | message bytes | frames | CPU per frame |")
    print("|---|---:|---:|---:|")
    for name, size, frames, us in cpu:
        print(f"| {name} | {size} | {frames} | {us:.1f} µs |")
    print("\n### Peak RSS (VmHWM) after the latency run\n")
    print("| process | VmHWM |")
    print("|---|---:|")
    for name, kib in hwm.items():
        what = "the demo server itself" if name == "direct" else f"the tap process ({name})"
        print(f"| {what} | {kib / 1024.0:.1f} MiB |")
    print("\n### A hostile server floods the tap (host reads and discards)\n")
    print("| flood | passed to the host | tap VmHWM | recording on disk (rotated, bounded) |")
    print("|---|---:|---:|---:|")
    for r in flood(args):
        print(f"| {r['flood']} | {r['passed_mib']:.0f} MiB | {r['tap_vmhwm_mib']:.1f} MiB | {r['record_mib']:.1f} MiB |")


if __name__ == "__main__":
    main()
