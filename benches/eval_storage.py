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

import json
import os
import sqlite3
import subprocess
import sys
import tempfile

BIN, SCRIPTED = sys.argv[1], sys.argv[2]
N = int(sys.argv[3]) if len(sys.argv) > 3 else 50


def main():
    work = tempfile.mkdtemp(prefix="mcplab-evalstore-")
    rules = os.path.join(work, "rules.json")
    with open(rules, "w") as f:
        json.dump([{"contains": "2 + 40", "steps": [
            {"call": [{"id": "c1", "name": "demo__add", "arguments": {"a": 2, "b": 40}}]},
            {"reply": ["The sum is ", "42."]}]}], f)
    llm = subprocess.Popen([SCRIPTED, "--rules", rules], stdout=subprocess.PIPE, text=True)
    base = llm.stdout.readline().split()[1]
    data = os.path.join(work, "data")
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()
           and not k.endswith("_API_KEY") and not k.endswith("_BASE_URL")}
    env.update(OPENAI_API_KEY="sk-bench", OPENAI_BASE_URL=base, NO_PROXY="127.0.0.1",
               MCPLAB_DATA_DIR=data)
    suite = os.path.join(work, "suite.yaml")
    with open(suite, "w") as f:
        f.write(f"""version: 1
id: storage
models: [openai::gpt-bench]
mcpServers:
  demo: {{ command: {BIN}, args: [demo-server] }}
cases:
  - id: add
    turns: ["What is 2 + 40? Use the add tool."]
    toolCalls: {{ expected: [{{ tool: add, arguments: {{ a: 2, b: 40 }} }}] }}
    checks: [answerContains: "42"]
""")
    try:
        p = subprocess.run([BIN, "eval", "run", suite, "--repeat", str(N), "--yes", "--json"],
                           env=env, capture_output=True, stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            sys.exit(f"eval run exited {p.returncode}: {p.stderr.decode()[-400:]}")
        db = os.path.join(data, "mcplab.db")
        c = sqlite3.connect(db)
        n, rows = c.execute("SELECT count(*), sum(length(record) + length(detail)) "
                            "FROM eval_iterations").fetchone()
        tables = [r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        blobs = c.execute("SELECT coalesce(sum(length(body)), 0) FROM eval_blobs").fetchone()[0] \
            if "eval_blobs" in tables else 0
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
    finally:
        llm.terminate()
        llm.wait()
        subprocess.run(["rm", "-rf", work])


main()
