"""The set-up the eval benchmarks share (benches/evals_bench.py, benches/eval_storage.py): a
temporary folder, the testkit's scripted LLM on 127.0.0.1 answering "What is 2 + 40?" with a
call of the demo server's `add` and then "The sum is 42.", an environment that points
`openai::` at it (no proxies, no real keys, a data directory of its own), and a one-case suite
file asking for that call. Standard library only; the folder and the LLM go when the `with`
block ends."""

import contextlib
import json
import os
import subprocess
import tempfile
from types import SimpleNamespace

PROMPT = "What is 2 + 40? Use the add tool."


def _start_llm(scripted, work):
    rules = os.path.join(work, "rules.json")
    with open(rules, "w") as f:
        json.dump([{"contains": "2 + 40", "steps": [
            {"call": [{"id": "c1", "name": "demo__add", "arguments": {"a": 2, "b": 40}}]},
            {"reply": ["The sum is ", "42."]}]}], f)
    llm = subprocess.Popen([scripted, "--rules", rules], stdout=subprocess.PIPE, text=True)
    return llm, llm.stdout.readline().split()[1]


def _write_suite(path, suite_id, mcplab):
    with open(path, "w") as f:
        f.write(f"""version: 1
id: {suite_id}
models: [openai::gpt-bench]
mcpServers:
  demo: {{ command: {mcplab}, args: [demo-server] }}
cases:
  - id: add
    turns: ["{PROMPT}"]
    toolCalls: {{ expected: [{{ tool: add, arguments: {{ a: 2, b: 40 }} }}] }}
    checks: [answerContains: "42"]
""")


@contextlib.contextmanager
def scripted_eval(mcplab, scripted, suite_id):
    """Yields `.work`, `.env`, `.data` (MCPLAB_DATA_DIR) and `.suite` (the suite file)."""
    work = tempfile.mkdtemp(prefix=f"mcplab-{suite_id}-")
    llm, base = _start_llm(scripted, work)
    try:
        data = os.path.join(work, "data")
        env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()
               and not k.endswith("_API_KEY") and not k.endswith("_BASE_URL")}
        env.update(OPENAI_API_KEY="sk-bench", OPENAI_BASE_URL=base, NO_PROXY="127.0.0.1",
                   MCPLAB_DATA_DIR=data)
        suite = os.path.join(work, "suite.yaml")
        _write_suite(suite, suite_id, mcplab)
        yield SimpleNamespace(work=work, env=env, data=data, suite=suite)
    finally:
        llm.terminate()
        llm.wait()
        subprocess.run(["rm", "-rf", work])
