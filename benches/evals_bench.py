#!/usr/bin/env python3
"""Eval runner benchmark (see benches/evals.sh): `mcplab eval run` over N iterations of one
case against the scripted LLM and the demo server, versus the same turn one by one through
`mcplab chat --json`. Reports wall time per iteration and peak RSS (wait4's ru_maxrss), and
checks that the run passed every iteration. Standard library only."""

import json
import os
import statistics
import subprocess
import sys
import time

from scripted_eval import PROMPT, scripted_eval

BIN, SCRIPTED = sys.argv[1], sys.argv[2]
ITERATIONS = int(os.environ.get("ITERATIONS", "1000"))
SMALL = int(os.environ.get("SMALL", "100"))
CONCURRENCY = os.environ.get("CONCURRENCY", "8")
CHAT_RUNS = int(os.environ.get("CHAT_RUNS", "30"))


def run(cmd, env):
    """Wall seconds, peak RSS in MiB, exit code, stdout of one child process."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, rusage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    return wall, rusage.ru_maxrss / 1024, p.returncode, out


def main():
    with scripted_eval(BIN, SCRIPTED, "bench") as setup:
        env, suite = setup.env, setup.suite
        rows = []
        for n, conc in ((SMALL, CONCURRENCY), (ITERATIONS, CONCURRENCY), (SMALL, "1")):
            wall, rss, code, out = run([BIN, "eval", "run", suite, "--repeat", str(n),
                                        "--concurrency", conc, "--json"], env)
            done = [json.loads(l) for l in out.decode().splitlines() if '"runFinished"' in l]
            passes = done[0]["summary"]["passes"] if done else 0
            if code != 0 or passes != n:
                sys.exit(f"eval run of {n} exited {code} with {passes}/{n} passed")
            rows.append((f"`eval run --repeat {n} --concurrency {conc}`", n, wall, rss))
        chat = [run([BIN, "chat", "--demo", "-m", "openai::gpt-bench", "--json", PROMPT], env)
                for _ in range(CHAT_RUNS)]
        if any(c[2] != 0 or b"42" not in c[3] for c in chat):
            sys.exit("a chat run failed")
        print("| what | iterations | wall total | per iteration | peak RSS |")
        print("|---|---:|---:|---:|---:|")
        for name, n, wall, rss in rows:
            print(f"| {name} | {n} | {wall:.2f} s | {wall / n * 1000:.1f} ms | {rss:.1f} MiB |")
        med = statistics.median(c[0] for c in chat)
        rss = statistics.median(c[1] for c in chat)
        print(f"| `chat --demo --json`, one process per turn (median of {CHAT_RUNS}) | 1 | "
              f"{med:.2f} s | {med * 1000:.1f} ms | {rss:.1f} MiB |")


main()
