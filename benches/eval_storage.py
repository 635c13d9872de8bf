#!/usr/bin/env python3
"""Eval history storage benchmark: bytes the data directory's SQLite file holds per stored
iteration. Runs `mcplab eval run --repeat N` (default 50) of one case (a tool call and an
answer against the demo server's 30 tools) with the testkit's scripted LLM on 127.0.0.1, then
reads the file with Python's sqlite3: the iteration rows' JSON (record + detail), the
content-addressed payloads (`eval_blobs`, when the schema has them), and the file's size after
VACUUM, each divided by the iterations. Then prunes every run (`eval runs prune --keep 0`) and
reports the file's size. Standard library only.

  python3 benches/eval_storage.py MCPLAB_BIN SCRIPTED_LLM_BIN [N]
"""

import os
import sqlite3
import subprocess
import sys

from scripted_eval import scripted_eval

BIN, SCRIPTED = sys.argv[1], sys.argv[2]
N = int(sys.argv[3]) if len(sys.argv) > 3 else 50


def main():
    with scripted_eval(BIN, SCRIPTED, "storage") as setup:
        env, suite = setup.env, setup.suite
        p = subprocess.run([BIN, "eval", "run", suite, "--repeat", str(N), "--yes", "--json"],
                           env=env, capture_output=True, stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            sys.exit(f"eval run exited {p.returncode}: {p.stderr.decode()[-400:]}")
        db = os.path.join(setup.data, "mcplab.db")
        c = sqlite3.connect(db)
        tables = [r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        # Since migration 10 a detail or payload may sit deflated in detail_z / body_z.
        cols = lambda t: [r[1] for r in c.execute(f"PRAGMA table_info({t})")]
        z = " + coalesce(length(detail_z), 0)" if "detail_z" in cols("eval_iterations") else ""
        n, rows = c.execute("SELECT count(*), sum(length(record) + coalesce(length(detail), 0)"
                            f"{z}) FROM eval_iterations").fetchone()
        blobs = 0
        if "eval_blobs" in tables:
            bz = " + coalesce(length(body_z), 0)" if "body_z" in cols("eval_blobs") else ""
            blobs = c.execute(f"SELECT coalesce(sum(length(body){bz}), 0) FROM eval_blobs").fetchone()[0]
        c.execute("VACUUM")
        c.close()
        size = os.path.getsize(db)
        print(f"iterations: {n}")
        print(f"iteration rows (record + detail): {rows / n:.0f} B per iteration")
        print(f"shared payloads (eval_blobs): {blobs} B in all, {blobs / n:.0f} B per iteration")
        print(f"file after VACUUM: {size} B, {size / n:.0f} B per iteration")
        p = subprocess.run([BIN, "eval", "runs", "prune", "--keep", "0"], env=env,
                           capture_output=True, stdin=subprocess.DEVNULL)
        if p.returncode == 0:
            print(f"after `eval runs prune --keep 0`: file {os.path.getsize(db)} B")
        else:
            print("`eval runs prune`: not in this build")


main()
