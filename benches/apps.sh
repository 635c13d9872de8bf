#!/usr/bin/env bash
# Apps benchmark: how long `mcplab apps render` takes end to end (start the in-process host
# and sandbox, connect the server, launch headless Chromium, call the tool, render the app,
# wait for it to settle, screenshot), split into the page's own time (tool call -> app
# initialized, result delivered and settled) and the rest; for the demo counter app and a
# published example app (server-basic-vanillajs over stdio). Also the web bundle: what the
# first page load costs and what the lazily loaded app host adds. No peer has a headless app
# renderer to compare with; the numbers are for regressions.
#
#   benches/apps.sh                   # RUNS=5 by default
#   MCPLAB_BIN=path benches/apps.sh   # skip the release build, measure this binary
# Needs: cargo (unless MCPLAB_BIN), npm, python3, /usr/bin/chromium, tests/npm installed.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=${RUNS:-5}
if [ -z "${MCPLAB_BIN:-}" ]; then
  npm --prefix "$ROOT/web" run build >/dev/null
  cargo build --release --manifest-path "$ROOT/Cargo.toml" -p mcplab >/dev/null
  MCPLAB_BIN=$ROOT/target/release/mcplab
fi
export MCPLAB_BIN RUNS ROOT
python3 - <<'PY'
import gzip, json, os, pathlib, statistics, subprocess, tempfile, time
root = pathlib.Path(os.environ["ROOT"]); binary = os.environ["MCPLAB_BIN"]; runs = int(os.environ["RUNS"])
node = subprocess.run(["sh", "-c", "command -v node"], capture_output=True, text=True).stdout.strip()
basic = root / "tests/npm/node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js"
cases = [
    ("demo counter app (mobile, dark)", ["--demo", "--tool", "show_counter_app", "--device", "mobile", "--theme", "dark"]),
    ("server-basic-vanillajs get-time (desktop)", ["--stdio", f"{node} {basic} --stdio", "--tool", "get-time"]),
]
print(f"mcplab apps render, {runs} runs each, median (min-max)\n")
print("| app | wall time | page: call -> settled | of which settle wait | PNG |")
print("|---|---|---|---|---|")
for name, args in cases:
    walls, pages, size = [], [], ""
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as d:
            out = pathlib.Path(d) / "shot.png"
            t = time.perf_counter()
            r = subprocess.run([binary, "--data-dir", d, "apps", "render", *args, "--out", str(out)], capture_output=True, text=True)
            walls.append((time.perf_counter() - t) * 1000)
            if r.returncode != 0:
                raise SystemExit(f"{name}: exit {r.returncode}\n{r.stderr}")
            rep = json.loads((pathlib.Path(str(out) + ".json")).read_text())
            pages.append(rep["durationMs"]); size = f'{rep["png"]["width"]}x{rep["png"]["height"]}'
    f = lambda xs: f"{statistics.median(xs):.0f} ms ({min(xs):.0f}-{max(xs):.0f})"
    print(f"| {name} | {f(walls)} | {f(pages)} | 600 ms | {size} |")
assets = root / "web/dist/assets"
def kb(paths):
    raw = sum(p.stat().st_size for p in paths); gz = sum(len(gzip.compress(p.read_bytes())) for p in paths)
    return f"{raw/1024:.0f} KiB ({gz/1024:.0f} KiB gzip)"
js = list(assets.glob("*.js"))
index = [p for p in js if p.name.startswith("index-")]
print(f"\nweb bundle: first load {kb(index + list(assets.glob('index-*.css')))}; all lazy chunks (app host, MCP-UI, render page) {kb([p for p in js if p not in index])}")
PY
