# Start and CLI timings of one mcplab binary: median and min of N runs of `--version` (process
# start) and `tools list --demo` (start, spawn its own demo server over stdio, initialize,
# list, stop). Private data dir; loopback only.
import subprocess, sys, time, statistics, tempfile
binary = sys.argv[1]; n = int(sys.argv[2]) if len(sys.argv) > 2 else 15
def timed(args):
    xs = []
    with tempfile.TemporaryDirectory() as d:
        for _ in range(n):
            t = time.perf_counter()
            subprocess.run([binary, "--data-dir", d] + args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            xs.append((time.perf_counter() - t) * 1000)
    return xs
for label, args in [("--version", ["--version"]), ("tools list --demo", ["tools", "list", "--demo"])]:
    xs = timed(args)
    print(f"{label:20s} median {statistics.median(xs):7.1f} ms  min {min(xs):7.1f} ms  (n={n})")
