#!/usr/bin/env python3
"""Measurement core of benches/web.sh (run that, not this): time from start to the first
HTTP 200 on `GET /`, idle resident memory and install footprint of mcplab's web inspector,
the official MCP Inspector's web mode and MCPJam Inspector. Standard library only.

web.sh runs this as PID 1 of fresh network + PID namespaces (`unshare --net --pid --fork
--mount-proc`) in which only `lo` exists and is up, so nothing any tool does can leave the
machine, and every process a tool leaves behind dies with the namespace when this exits.
The harness refuses to run if it sees any network interface other than `lo`.

Start -> first 200: time.perf_counter_ns() from just before posix_spawn() of the tool's
command to the complete response of the first `GET /` (HTTP/1.1, `Connection: close`,
`Host: 127.0.0.1:PORT`) that answers 200, polled on a fresh TCP connection every ~1 ms
(connection refused / reset / non-200 -> sleep 1 ms, try again). Rows are interleaved
round-robin so that drift hits every row alike; those runs are not sampled otherwise.

Idle RSS, in separate runs: start the tool, wait for the first 200 as above (the UI shell
has then been served once), sleep --idle seconds, then read VmRSS (and Pss from
smaps_rollup) of the spawned process and of every descendant (/proc/PID/task/*/children,
recursively). "own" = the spawned process alone; "tree" = the sum over the process tree
(a sum of RSS counts pages shared between processes twice; the Pss sum does not).

Idle with the UI open (the budget's measure; with --ui-driver): start the tool, wait for the
first 200, open its UI in Chromium through benches/web_ui.mjs (playwright-core), which prints
one JSON line once the UI is up (event stream attached, server list rendered: events, not
sleeps); then --ui-settle seconds of idle, then the same VmRSS/Pss sums over the tool's whole
process tree. The browser is the driver's child, so it is in no tool's tree.

Install footprint: disk usage (st_blocks, hard links once, like `du`) of the release binary
for mcplab, and of the npm dependency closure (resolved from the install's package-lock.json
the way Node resolves `require`) for the npm tools; for MCPJam also `du` of its whole
scratch install, which should agree. The Node.js runtime the npm tools need is reported
separately.
"""

import argparse
import json
import math
import os
import re
import select
import signal
import subprocess
import socket
import statistics
import sys
import time

MIB = 1024.0 * 1024.0
EXITED = {}  # pid -> wait status, for every child this PID 1 has reaped
LAST_BODY = {}  # port -> (bytes after the headers, chunked?) of the last response


def reap():
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        EXITED[pid] = status


def alive(pid):
    reap()
    if pid in EXITED:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def descendants(pid):
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for t in tasks:
            try:
                with open(f"/proc/{p}/task/{t}/children") as f:
                    kids = [int(k) for k in f.read().split()]
            except OSError:
                kids = []
            out += kids
            todo += kids
    return out


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def get_root(port, timeout=2.0):
    """One `GET /` on a new connection. Returns the status code, or None when the connection
    is refused/reset or the response is incomplete."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.settimeout(timeout)
    try:
        if s.connect_ex(("127.0.0.1", port)) != 0:
            return None
        s.sendall(
            f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/html\r\n"
            "User-Agent: mcplab-web-bench\r\nConnection: close\r\n\r\n".encode()
        )
        buf = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
        if not buf.startswith(b"HTTP/1."):
            return None
        head, _, body = buf.partition(b"\r\n\r\n")
        LAST_BODY[port] = (len(body), b"chunked" in head.lower(), b"was not built into this binary" in body)
        return int(buf.split(b" ", 2)[1])
    except (OSError, ValueError, IndexError):
        return None
    finally:
        s.close()


class Run:
    """One started tool: spawned in its own session, stdout+stderr to a log file."""

    def __init__(self, row, port, data_dir, log_path):
        argv, env, cwd = row["make"](port, data_dir)
        self.row, self.port, self.log_path = row, port, log_path
        os.chdir(cwd)
        fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
            (os.POSIX_SPAWN_DUP2, fd, 1),
            (os.POSIX_SPAWN_DUP2, fd, 2),
        ]
        self.t0 = time.perf_counter_ns()
        self.pid = os.posix_spawn(argv[0], argv, env, file_actions=actions, setsid=True)
        os.close(fd)

    def wait_200(self, timeout):
        deadline = self.t0 + int(timeout * 1e9)
        last = None
        while True:
            code = get_root(self.port)
            now = time.perf_counter_ns()
            if code == 200:
                return (now - self.t0) / 1e6
            last = code if code is not None else last
            if now > deadline:
                raise RuntimeError(f"{self.row['key']}: no 200 within {timeout} s (last status {last})")
            if not alive(self.pid):
                raise RuntimeError(f"{self.row['key']}: exited ({EXITED.get(self.pid)}) before any 200")
            time.sleep(0.001)

    def stop(self, grace=5.0):
        """SIGTERM the session (the tool's process group), then every descendant left; SIGKILL
        whatever is still alive after `grace`. The PID namespace is the last resort."""
        procs = [self.pid] + descendants(self.pid)
        try:
            os.killpg(self.pid, signal.SIGTERM)
        except OSError:
            pass
        for p in procs[1:]:
            try:
                os.kill(p, signal.SIGTERM)
            except OSError:
                pass
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and any(alive(p) for p in procs):
            time.sleep(0.01)
        for p in procs + descendants(self.pid):
            if alive(p):
                try:
                    os.kill(p, signal.SIGKILL)
                except OSError:
                    pass
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and any(alive(p) for p in procs):
            time.sleep(0.01)
        reap()


def proc_mem(pid):
    """(VmRSS KiB, Pss KiB, comm, cmdline) of one process."""
    rss = pss = 0
    comm = cmd = "?"
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
        with open(f"/proc/{pid}/comm") as f:
            comm = f.read().strip()
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = " ".join(a.decode(errors="replace") for a in f.read().split(b"\0") if a)
    except OSError:
        pass
    return rss, pss, comm, cmd


def listeners():
    """Listening TCP sockets in this namespace, as 'addr:port' strings."""
    out = []
    for name, v6 in (("tcp", False), ("tcp6", True)):
        try:
            with open(f"/proc/net/{name}") as f:
                lines = f.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if parts[3] != "0A":
                continue
            hexaddr, hexport = parts[1].split(":")
            raw = bytes.fromhex(hexaddr)
            if v6:
                words = [raw[i:i + 4][::-1] for i in range(0, 16, 4)]
                addr = "[" + socket.inet_ntop(socket.AF_INET6, b"".join(words)) + "]"
            else:
                addr = socket.inet_ntoa(raw[::-1])
            out.append(f"{addr}:{int(hexport, 16)}")
    return sorted(out)


# --- footprint ----------------------------------------------------------------------------

def disk_usage(paths, skip_dirs=()):
    """du-style bytes (st_blocks * 512, each inode once) and file count under paths, not
    descending into directories named in skip_dirs."""
    seen, total, files = set(), 0, 0
    for top in paths:
        for root, dirs, names in os.walk(top):
            dirs[:] = [d for d in dirs if d not in skip_dirs]
            for n in names + dirs:
                p = os.path.join(root, n)
                try:
                    st = os.lstat(p)
                except OSError:
                    continue
                if (st.st_dev, st.st_ino) in seen:
                    continue
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
                if n in names:
                    files += 1
    return total, files


def npm_closure(install_root, package):
    """Package directories (relative to install_root) that `package` needs at run time:
    dependencies, optional and peer dependencies present on disk, resolved from
    package-lock.json (lockfile v2/v3) the way Node resolves them (nearest node_modules
    upward). Returns (paths, missing names)."""
    with open(os.path.join(install_root, "package-lock.json")) as f:
        pkgs = json.load(f)["packages"]
    start = f"node_modules/{package}"
    if start not in pkgs:
        raise RuntimeError(f"{package} not in {install_root}/package-lock.json")

    def resolve(frm, name):
        base = frm
        while True:
            cand = f"{base}/node_modules/{name}" if base else f"node_modules/{name}"
            if cand in pkgs:
                return cand
            if not base:
                return None
            idx = base.rfind("/node_modules/")
            base = base[:idx] if idx >= 0 else ""

    seen, todo, missing = set(), [start], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        meta = pkgs[p]
        if meta.get("link"):
            continue
        deps = list(meta.get("dependencies", {}))
        deps += list(meta.get("optionalDependencies", {}))
        peers = meta.get("peerDependencies", {})
        peer_meta = meta.get("peerDependenciesMeta", {})
        deps += [n for n in peers if not peer_meta.get(n, {}).get("optional")]
        for name in deps:
            q = resolve(p, name)
            if q is None or not os.path.isdir(os.path.join(install_root, q)):
                if name not in meta.get("optionalDependencies", {}) and not peer_meta.get(name, {}).get("optional"):
                    missing.add(name)
                continue
            todo.append(q)
    return sorted(seen), sorted(missing)


def closure_usage(install_root, package):
    paths, missing = npm_closure(install_root, package)
    full = [os.path.join(install_root, p) for p in paths]
    # Each package's own files; nested node_modules are counted as their own closure entries.
    size, files = disk_usage(full, skip_dirs=("node_modules",))
    return size, files, len(paths), missing


# --- idle with the UI open ----------------------------------------------------------------------

UI_URL = {
    # mcplab prints a one-time login URL; the official Inspector a URL with its API token.
    "mcplab": re.compile(r"^open (http://\S+)$", re.M),
    "inspector": re.compile(r"(http://127\.0\.0\.1:\d+/?\?MCP_INSPECTOR_API_TOKEN=[0-9a-f]+)"),
}


def wait_log(path, offset, pattern, pid, deadline):
    """The first match of pattern in what the tool wrote to its log after `offset`."""
    while True:
        with open(path, errors="replace") as f:
            f.seek(offset)
            m = pattern.search(f.read())
        if m:
            return m.group(1)
        if not alive(pid):
            raise RuntimeError(f"{path}: the tool exited before printing its URL")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{path}: no URL matching {pattern.pattern!r} in time")
        time.sleep(0.01)


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def anon_file(pid):
    """(RssAnon, RssFile) KiB of one process: heap and stacks vs mapped file pages (the binary)."""
    out = {"RssAnon:": 0, "RssFile:": 0}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                k = line.split(":")[0] + ":"
                if k in out:
                    out[k] = int(line.split()[1])
    except OSError:
        pass
    return out["RssAnon:"], out["RssFile:"]


def tree_mem(pid):
    per = [(p,) + proc_mem(p) for p in [pid] + descendants(pid)]
    return per, sum(x[1] for x in per), sum(x[2] for x in per)


def ui_run(row, a, logs, one):
    """Start the tool, open its UI in Chromium (benches/web_ui.mjs) and wait for the driver to
    say the UI is up; then settle for --ui-settle seconds and read the memory of the tool's
    whole process tree. The browser is the driver's child, not the tool's, so it is not in
    the tool's tree; its own RSS is kept for the details only."""
    log_path = os.path.join(logs, f"{row['key']}.log")
    offset = os.path.getsize(log_path) if os.path.exists(log_path) else 0
    run, _ = one(row, 0)
    driver = None
    try:
        deadline = time.monotonic() + a.timeout
        if row["kind"] in UI_URL:
            url = wait_log(log_path, offset, UI_URL[row["kind"]], run.pid, deadline)
        else:
            url = f"http://127.0.0.1:{run.port}/"
        drv_log = open(os.path.join(logs, f"{row['key']}-driver.log"), "ab")
        driver = subprocess.Popen(
            [a.node, a.ui_driver, "--kind", row["kind"], "--url", url, "--chromium", a.chromium],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=drv_log, start_new_session=True,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.path.join(a.work, "home")})
        drv_log.close()
        ready, _, _ = select.select([driver.stdout], [], [], 120)
        line = driver.stdout.readline() if ready else b""
        try:
            info = json.loads(line)
        except ValueError:
            raise RuntimeError(f"{row['key']}: the browser driver said nothing in 120 s (see its log)")
        if not info.get("ready"):
            raise RuntimeError(f"{row['key']}: the UI did not come up: {info.get('error')}")
        _, at_ready, _ = tree_mem(run.pid)
        time.sleep(a.ui_settle)  # the idle period being measured, not a synchronisation
        per, rss, pss = tree_mem(run.pid)
        split = [anon_file(p[0]) for p in per]
        _, browser_rss, _ = tree_mem(driver.pid)
        return dict(own=per[0][1], rss=rss, pss=pss, n=len(per), per=per, at_ready=at_ready,
                    ms=info["ms"], paint=info.get("paintMs"), listed=info.get("listedMs"), streams=info.get("streams", []), browser=browser_rss, split=split,
                    listen=listeners())
    finally:
        if driver is not None:
            try:
                driver.stdin.close()
                driver.wait(timeout=15)
            except (OSError, subprocess.TimeoutExpired):
                try:
                    os.killpg(driver.pid, signal.SIGKILL)
                except OSError:
                    pass
        run.stop()


def med_of(rs, key):
    """The median of a page-measured time over runs, or '-' when the page gave none."""
    vs = [r[key] for r in rs if r.get(key) is not None]
    return f"{statistics.median(vs):.0f}" if vs else "-"


def report_ui(rows, ui, a):
    med = statistics.median
    print("#### Idle with the UI open in Chromium (whole process trees, browser excluded)")
    print()
    print("| tool | how it is started | UI up after, median ms | HTML → first paint, ms | HTML → servers listed, ms | idle RSS MiB, whole tree (processes) | tree PSS MiB | own process RSS MiB | long-lived streams the UI opened |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for row in rows:
        rs = ui[row["key"]]
        streams = sorted({s for r in rs for s in r["streams"]}) or ["none"]
        print(f"| {row['tool']} | {row['how']} | {med([r['ms'] for r in rs]):.0f} | "
              f"{med_of(rs, 'paint')} | {med_of(rs, 'listed')} | "
              f"{med([r['rss'] for r in rs]) / 1024:.1f} ({max(r['n'] for r in rs)}) | "
              f"{med([r['pss'] for r in rs]) / 1024:.1f} | {med([r['own'] for r in rs]) / 1024:.1f} | "
              f"{', '.join(streams)} |")
    print()
    print(f"Median of {a.ui_runs} runs per row, interleaved round-robin. Each run: start the tool, wait "
          f"for its first 200, open its UI in {a.chromium} (headless, playwright-core), wait until the "
          f"UI is up (benches/web_ui.mjs says what that means per tool), then an idle settle of "
          f"{a.ui_settle:g} s (a measurement choice), then VmRSS/Pss of the tool's process and every "
          f"descendant. The browser's processes are children of the driver, not of the tool: "
          f"excluded on every side. Load average (1/5/15 min): {a.load['ui']} before these runs, "
          f"{a.load['end']} after them.")
    print()
    m = med([r["rss"] for r in ui["ui-mcplab"]])
    mp = med([r["pss"] for r in ui["ui-mcplab"]])
    for key, name in (("ui-inspector", "official Inspector"), ("ui-mcpjam", "MCPJam")):
        p = med([r["rss"] for r in ui[key]])
        pp = med([r["pss"] for r in ui[key]])
        print(f"- {name} ÷ mcplab, idle with the UI open, whole tree RSS: {p / m:.1f}× (PSS: {pp / mp:.1f}×)")
    verdict = "met" if m / 1024 < 25 else "NOT met"
    print(f"- target (DESIGN §6, idle with the UI open, under 25 MiB): {verdict} — mcplab tree RSS "
          f"{m / 1024:.1f} MiB (PSS {mp / 1024:.1f} MiB)")
    print()
    print("Details (UI open):")
    print()
    for row in rows:
        for i, r in enumerate(ui[row["key"]]):
            procs = "; ".join(f"pid {p} {rss / 1024:.1f} MiB (anon {an / 1024:.1f}, file {fi / 1024:.1f}; "
                              f"{(cmd[:60] + '…') if len(cmd) > 60 else cmd})"
                              for (p, rss, _pss, _c, cmd), (an, fi) in zip(r["per"], r["split"]))
            print(f"- {row['key']} run {i + 1}: up after {r['ms']:.0f} ms; tree RSS {r['at_ready'] / 1024:.1f} MiB "
                  f"when up, {r['rss'] / 1024:.1f} MiB after the settle; browser tree (excluded) "
                  f"{r['browser'] / 1024:.0f} MiB; {procs}")
    print()


# --- main -----------------------------------------------------------------------------------

def pct(xs, q):
    xs = sorted(xs)
    k = max(0, min(len(xs) - 1, math.ceil(q * len(xs)) - 1))  # nearest rank
    return xs[k]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mcplab", required=True)
    ap.add_argument("--node", required=True)
    ap.add_argument("--inspector-root", required=True, help="npm install dir holding the official inspector")
    ap.add_argument("--mcpjam-root", required=True, help="npm install dir holding @mcpjam/inspector")
    ap.add_argument("--work", required=True)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--rss-runs", type=int, default=3)
    ap.add_argument("--idle", type=float, default=3.0)
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--ui-driver", help="benches/web_ui.mjs; without it the UI-open rows are skipped")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--ui-runs", type=int, default=3)
    ap.add_argument("--ui-settle", type=float, default=5.0)
    ap.add_argument("--ui-only", action="store_true", help="only the UI-open rows")
    a = ap.parse_args()

    with open("/proc/self/net/dev") as f:  # not /sys/class/net: sysfs keeps the old netns
        ifaces = sorted(line.split(":")[0].strip() for line in f.read().splitlines()[2:])
    if ifaces != ["lo"] or os.getpid() != 1:
        sys.exit(f"refusing to run: need a fresh net+pid namespace with only lo (have {ifaces}, pid {os.getpid()})")

    work = a.work
    node_dir = os.path.dirname(a.node)
    inspector_launcher = os.path.join(
        a.inspector_root, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js")
    mcpjam_pkg = os.path.join(a.mcpjam_root, "node_modules/@mcpjam/inspector")
    mcpjam_start = os.path.join(mcpjam_pkg, "bin/start.js")
    mcpjam_server = os.path.join(mcpjam_pkg, "dist/server/index.js")
    home = os.path.join(work, "home")
    os.makedirs(home, exist_ok=True)
    base_env = {
        "PATH": f"{node_dir}:/usr/local/bin:/usr/bin:/bin",
        "HOME": home,
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
        "NO_UPDATE_NOTIFIER": "1",
        "BROWSER": "/bin/true",        # MCPJam's launcher always runs xdg-open; make it a no-op
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
    }
    counter = [0]

    def fresh_dir(prefix):
        counter[0] += 1
        d = os.path.join(work, f"{prefix}-{counter[0]}")
        os.makedirs(d)
        return d

    warm_dir = os.path.join(work, "mcplab-warm")
    os.makedirs(warm_dir)

    def mk_mcplab(fresh):
        def make(port, _):
            d = fresh_dir("mcplab-fresh") if fresh else warm_dir
            return ([a.mcplab, "--no-open", "--port", str(port), "--data-dir", d], dict(base_env), work)
        return make

    def mk_mcplab_serve_demo(port, _):
        return ([a.mcplab, "serve", "--demo", "--no-open", "--port", str(port), "--data-dir", warm_dir], dict(base_env), work)

    def mk_inspector(port, _):
        d = fresh_dir("inspector")
        env = dict(base_env, CLIENT_PORT=str(port), MCP_SANDBOX_PORT="0", MCP_APP_ORIGIN_PORT="0",
                   MCP_AUTO_OPEN_ENABLED="false", MCP_INSPECTOR_SECRET_STORE="memory",
                   MCP_STORAGE_DIR=os.path.join(d, "storage"), MCP_CATALOG_PATH=os.path.join(d, "mcp.json"))
        return ([a.node, inspector_launcher], env, d)

    def mk_mcpjam(port, _):
        d = fresh_dir("mcpjam")
        return ([a.node, mcpjam_start, "--port", str(port)], dict(base_env, HOME=d), d)

    def mk_mcpjam_server(port, _):
        d = fresh_dir("mcpjam-server")
        env = dict(base_env, HOME=d, NODE_ENV="production", PORT=str(port))
        return ([a.node, mcpjam_server], env, mcpjam_pkg)

    rows = [
        dict(key="mcplab-fresh", tool="mcplab", how="`mcplab --no-open --port P --data-dir NEW` (first run: creates the store, seeds and connects the demo server)", make=mk_mcplab(True)),
        dict(key="mcplab-warm", tool="mcplab", how="`mcplab --no-open --port P --data-dir WARM` (existing store; connects the demo server)", make=mk_mcplab(False)),
        dict(key="inspector", tool="official MCP Inspector", how="`$NODE $INSPECTOR` (web mode, `CLIENT_PORT=P MCP_AUTO_OPEN_ENABLED=false`)", make=mk_inspector),
        dict(key="mcpjam", tool="MCPJam Inspector", how="`$NODE $MCPJAM/bin/start.js --port P` (its `inspector` bin, as `npx @mcpjam/inspector` runs it)", make=mk_mcpjam),
        dict(key="mcpjam-server", tool="MCPJam Inspector, server only", how="`NODE_ENV=production PORT=P $NODE $MCPJAM/dist/server/index.js` (what the bin spawns, without its fixed 0.5 s delay)", make=mk_mcpjam_server),
    ]
    logs = os.path.join(work, "logs")
    os.makedirs(logs)

    def one(row, n):
        run = Run(row, free_port(), None, os.path.join(logs, f"{row['key']}.log"))
        try:
            return run, run.wait_200(a.timeout)
        except Exception:
            run.stop()
            raise

    # Prime the warm data dir (store created, demo server seeded), untimed.
    run, _ = one(rows[1], 0)
    time.sleep(1.0)
    run.stop()

    # --- start -> first 200 -------------------------------------------------------------------
    load = {"start": loadavg()}
    times = {r["key"]: [] for r in rows}
    stop_ms = {r["key"]: [] for r in rows}
    for i in range(0 if a.ui_only else a.warmup + a.runs):
        for row in rows:
            run, ms = one(row, i)
            t = time.perf_counter_ns()
            run.stop()
            if i >= a.warmup:
                times[row["key"]].append(ms)
                stop_ms[row["key"]].append((time.perf_counter_ns() - t) / 1e6)
        print(f"  round {i + 1}/{a.warmup + a.runs} done", file=sys.stderr, flush=True)

    # --- idle RSS --------------------------------------------------------------------------------
    mem = {r["key"]: [] for r in rows}
    procs_seen = {}
    listen_seen = {}
    bodies = {}
    for i in range(0 if a.ui_only else a.rss_runs):
        for row in rows:
            before = set(listeners())
            run, _ = one(row, i)
            time.sleep(a.idle)
            pids = [run.pid] + descendants(run.pid)
            per = [(p,) + proc_mem(p) for p in pids]
            own = per[0][1]
            tree_rss = sum(x[1] for x in per)
            tree_pss = sum(x[2] for x in per)
            mem[row["key"]].append((own, tree_rss, tree_pss, len(per)))
            procs_seen[row["key"]] = per
            listen_seen[row["key"]] = sorted(set(listeners()) - before)
            bodies[row["key"]] = LAST_BODY.get(run.port)
            run.stop()
        print(f"  memory round {i + 1}/{a.rss_runs} done", file=sys.stderr, flush=True)

    # --- idle RSS with the UI open in Chromium -------------------------------------------------
    load["ui"] = loadavg()
    ui_rows = [
        dict(key="ui-mcplab", tool="mcplab", kind="mcplab", how="`mcplab serve --demo --no-open --port P --data-dir WARM`", make=mk_mcplab_serve_demo),
        dict(key="ui-inspector", tool="official MCP Inspector", kind="inspector", how="`$NODE $INSPECTOR` (web mode)", make=mk_inspector),
        dict(key="ui-mcpjam", tool="MCPJam Inspector", kind="mcpjam", how="`$NODE $MCPJAM/bin/start.js --port P`", make=mk_mcpjam),
    ]
    ui = {r["key"]: [] for r in ui_rows}
    if a.ui_driver:
        for i in range(a.ui_runs):
            for row in ui_rows:
                ui[row["key"]].append(ui_run(row, a, logs, one))
            print(f"  UI-open round {i + 1}/{a.ui_runs} done", file=sys.stderr, flush=True)

    # --- footprint ----------------------------------------------------------------------------
    load["end"] = loadavg()
    a.load = load
    if a.ui_only:
        report_ui(ui_rows, ui, a)
        return
    bin_size = os.stat(a.mcplab).st_blocks * 512
    bin_bytes = os.path.getsize(a.mcplab)
    insp = closure_usage(a.inspector_root, "@modelcontextprotocol/inspector")
    jam = closure_usage(a.mcpjam_root, "@mcpjam/inspector")
    jam_all, jam_all_files = disk_usage([os.path.join(a.mcpjam_root, "node_modules")])
    node_bytes = os.path.getsize(os.path.realpath(a.node))
    foot = {
        "mcplab": f"{bin_size / MIB:.1f} MiB (one file, the release binary)",
        "inspector": f"{insp[0] / MIB:.1f} MiB ({insp[2]} packages, {insp[1]} files) + Node ≥ 22.19",
        "mcpjam": f"{jam[0] / MIB:.1f} MiB ({jam[2]} packages, {jam[1]} files) + Node",
    }

    # --- report -------------------------------------------------------------------------------
    def med(xs):
        return statistics.median(xs)

    if a.ui_driver:
        report_ui(ui_rows, ui, a)
    print("| tool | how it is started | start → first 200 median ms | p90 ms | idle RSS MiB, own process | idle RSS MiB, process tree (procs) | install footprint |")
    print("|---|---|---:|---:|---:|---:|---|")
    for row in rows:
        k = row["key"]
        ts = times[k]
        own = med([m[0] for m in mem[k]]) / 1024
        tree = med([m[1] for m in mem[k]]) / 1024
        nprocs = max(m[3] for m in mem[k])
        fk = "mcplab" if k.startswith("mcplab") else ("inspector" if k == "inspector" else "mcpjam")
        print(f"| {row['tool']} | {row['how']} | {med(ts):.1f} | {pct(ts, 0.9):.1f} | {own:.1f} | {tree:.1f} ({nprocs}) | {foot[fk]} |")
    print()
    print(f"Timed runs: {a.runs} per row after {a.warmup} warm-up round(s), interleaved; idle RSS: median of {a.rss_runs} runs, read {a.idle:g} s after the first 200. "
          f"Load average (1/5/15 min): {load['start']} before these runs, {load['ui']} after them (2 cores shared: "
          f"a load well above 2 inflates every time).")
    print()
    print("Details:")
    print()
    for row in rows:
        k = row["key"]
        ts = sorted(times[k])
        print(f"- {k}: start→200 min {ts[0]:.1f} / median {med(ts):.1f} / p90 {pct(ts, 0.9):.1f} / max {ts[-1]:.1f} ms; "
              f"stop (SIGTERM → all exited) median {med(stop_ms[k]):.0f} ms")
        m = mem[k]
        print(f"  idle RSS own {', '.join(f'{x[0] / 1024:.1f}' for x in m)} MiB; tree RSS {', '.join(f'{x[1] / 1024:.1f}' for x in m)} MiB; "
              f"tree PSS {', '.join(f'{x[2] / 1024:.1f}' for x in m)} MiB")
        for p, rss, pss, comm, cmd in procs_seen[k]:
            short = cmd if len(cmd) <= 110 else cmd[:107] + "…"
            print(f"    pid {p}: RSS {rss / 1024:.1f} MiB, PSS {pss / 1024:.1f} MiB — {short}")
        print(f"  listening: {', '.join(listen_seen[k]) or '—'}; `GET /` body "
              f"{bodies[k][0] if bodies.get(k) else '?'} bytes{' (chunked)' if bodies.get(k) and bodies[k][1] else ''}")
    print()
    print("Footprint:")
    print()
    ui = bodies.get("mcplab-warm")
    ui_note = "?" if not ui else ("NOT embedded (it serves the 'not built' page)" if ui[2] else "embedded")
    print(f"- mcplab: release binary {bin_bytes / MIB:.1f} MiB ({bin_bytes} bytes), {bin_size / MIB:.1f} MiB on disk; web UI {ui_note}")
    print(f"- official inspector: dependency closure in {a.inspector_root}/node_modules: {insp[0] / MIB:.1f} MiB on disk, "
          f"{insp[2]} packages, {insp[1]} files" + (f"; not on disk: {', '.join(insp[3])}" if insp[3] else ""))
    print(f"- MCPJam: dependency closure {jam[0] / MIB:.1f} MiB on disk, {jam[2]} packages, {jam[1]} files"
          + (f"; not on disk: {', '.join(jam[3])}" if jam[3] else "")
          + f"; whole scratch install `du` of node_modules: {jam_all / MIB:.1f} MiB, {jam_all_files} files")
    print(f"- Node.js runtime the npm tools run on (not counted above): {a.node} {node_bytes / MIB:.1f} MiB")
    print()
    print("Ratios (peer ÷ mcplab):")
    print()
    mt = med(times["mcplab-warm"])
    mf = med(times["mcplab-fresh"])
    mo = med([m[0] for m in mem["mcplab-warm"]])
    mtr = med([m[1] for m in mem["mcplab-warm"]])
    for k in ("inspector", "mcpjam"):
        pt = med(times[k])
        po = med([m[1] for m in mem[k]])
        fs = insp[0] if k == "inspector" else jam[0]
        print(f"- {k}: start→200 {pt / mt:.0f}× (warm) / {pt / mf:.0f}× (fresh); idle RSS tree vs mcplab own {po / mo:.1f}×, "
              f"vs mcplab with demo child {po / mtr:.1f}×; footprint {fs / bin_size:.1f}× (without Node)")
    print()
    print("Targets (DESIGN.md §6): start → first 200 under 50 ms; idle RSS under 25 MiB.")
    for k in ("mcplab-fresh", "mcplab-warm"):
        t = med(times[k])
        p90 = pct(times[k], 0.9)
        o = med([m[0] for m in mem[k]]) / 1024
        tr = med([m[1] for m in mem[k]]) / 1024
        print(f"- {k}: time {'met' if t < 50 else 'NOT met'} (median {t:.1f} ms, p90 {p90:.1f} ms); "
              f"RSS own {'met' if o < 25 else 'NOT met'} ({o:.1f} MiB), with demo child {'met' if tr < 25 else 'NOT met'} ({tr:.1f} MiB)")
    sys.stdout.flush()


if __name__ == "__main__":
    try:
        main()
    finally:
        # PID 1: when this exits the kernel kills everything left in the namespace.
        reap()
