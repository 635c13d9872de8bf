#!/usr/bin/env python3
"""Footprint of one mcplab binary (DESIGN.md §6): its size and sections, and the CLI's own peak
resident memory for `tools list --demo` (the demo server is a child over stdio, not counted).

Peak RSS is the process's own VmHWM, read from /proc/PID/status every ~0.5 ms until it exits
(VmHWM only grows, so the last reading is the peak); RssAnon (heap, stacks, relocated data)
and RssFile (mapped pages of the binary and shared libraries) are from the same last reading.
Standard library only. Usage: footprint_bench.py BINARY [RUNS]
"""
import os, statistics, subprocess, sys, tempfile, time

FIELDS = ("VmHWM:", "VmRSS:", "RssAnon:", "RssFile:")


def status(pid):
    """The FIELDS of /proc/PID/status in KiB, or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            out = {}
            for line in f:
                key = line.split(None, 1)[0] if line.strip() else ""
                if key in FIELDS:
                    out[key] = int(line.split()[1])
            return out if out else None
    except (FileNotFoundError, ProcessLookupError):
        return None


def peak(argv):
    """Runs argv, sampling its own status until it exits; the last complete sample."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    last = None
    while proc.poll() is None:
        s = status(proc.pid)
        # A zombie's status has no memory lines: keep the last full reading.
        if s and "VmHWM:" in s:
            last = s
        time.sleep(0.0005)
    out = proc.stdout.read()
    proc.stdout.close()
    if proc.returncode != 0:
        sys.exit(f"{argv} exited {proc.returncode}")
    return last, out


def sections(binary):
    """(name, bytes) of the binary's larger ELF sections, from `size -A`."""
    rows = []
    for line in subprocess.run(["size", "-A", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith(".") and parts[1].isdigit() and int(parts[1]) >= 100_000:
            rows.append((parts[0], int(parts[1])))
    return rows


def main():
    binary = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    size = os.path.getsize(binary)
    print(f"\n### Binary\n\n`{binary}`: **{size:,} bytes ({size / 1e6:.1f} MB)**\n")
    print("| section | bytes |\n|---|---:|")
    for name, n in sections(binary):
        print(f"| `{name}` | {n:,} |")
    print("\n### CLI own peak RSS (its demo server child excluded)\n")
    print(f"{runs} runs per row, after one warm-up run; KiB → MiB.\n")
    print("| command | peak RSS (VmHWM) median | max | RssAnon at the end, median | RssFile at the end, median |")
    print("|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as data:
        for label, args in [("--version", ["--version"]), ("tools list --demo", ["tools", "list", "--demo"])]:
            argv = [binary, "--data-dir", data] + args
            peak(argv)
            samples = [peak(argv)[0] for _ in range(runs)]
            if label != "--version":
                assert b"add" in peak(argv)[1], "tools list --demo printed no tools"
            med = lambda k: statistics.median(s[k] for s in samples) / 1024
            print(f"| `mcplab {label}` | {med('VmHWM:'):.1f} | {max(s['VmHWM:'] for s in samples) / 1024:.1f} "
                  f"| {med('RssAnon:'):.1f} | {med('RssFile:'):.1f} |")


if __name__ == "__main__":
    main()
