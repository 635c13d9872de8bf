"""Tells whether crates/mcplab/link-order.txt is stale, without building anything (~1 s).

The file names functions by mangled symbol, and a symbol's name carries a hash of its crate's
build: the crate's version, its features, its release profile, and the same of every crate it
depends on (cargo's `-C metadata`), plus the toolchain. When any of that changes, the names of
that crate and of every crate above it change; the linker skips names it does not find, and
`mcplab tools list` maps megabytes more of the binary (BENCHMARKS.md, "Footprint": half the names
stale took it from 8.8 to 13.7 MiB against a 12 MiB budget).

So scripts/link_order.py writes, in the file's header, a fingerprint of each crate's build
computed the way cargo composes `-C metadata`: the crate's package id, features and release
profile, and its dependencies' fingerprints, from `cargo tree` of the mcplab binary (normal and
build edges; dev-dependencies do not count). `--check` recomputes them and fails when any
changed. It does not estimate how many names changed: legacy mangling (`_ZN…17h<hash>E`, most of
the file) hashes the crate that instantiated a generic function without naming it, so
`tokio::runtime::task::raw::poll` made in the mcplab crate is renamed when mcplab is, and any
change below a crate renames it. Measured: a change that renamed the names of 8 workspace
crates (113 of 1,983 names mention one) took `tools list --demo` from 8.7 to 12.4 MiB. The
exact count needs an unstripped release build: `--check --binary BINARY` (fails above
`--max-stale`, 20 % by default).

Not covered: `CARGO_PROFILE_*` environment overrides and profiles in `.cargo/config.toml`.
"""
import hashlib
import json
import os
import re
import subprocess
import tomllib

TARGET = "x86_64-unknown-linux-gnu"
REGENERATE = ("cargo rustc --release -p mcplab --bin mcplab -- -C strip=none && "
              "python3 scripts/link_order.py target/release/mcplab")


def toolchain():
    return subprocess.run(["rustc", "-V"], capture_output=True, text=True, check=True).stdout.strip()


def release_profiles(root):
    """(the [profile.release] settings, {package name: its override}) from the workspace manifest."""
    with open(os.path.join(root, "Cargo.toml"), "rb") as f:
        release = tomllib.load(f).get("profile", {}).get("release", {})
    overrides = release.get("package", {})
    base = {k: v for k, v in release.items() if k not in ("package", "build-override")}
    return base, overrides


def crate_fingerprints(root):
    """{crate identifier as mangled (lib name): fingerprint} for the mcplab binary's build graph."""
    run = subprocess.run(
        ["cargo", "tree", "--locked", "-p", "mcplab", "-e", "normal,build", "--target", TARGET, "--prefix", "depth",
         "-f", "{p}|{f}|{lib}"],
        cwd=root, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"`cargo tree` of the mcplab binary failed (is Cargo.lock up to date?):\n{run.stderr}")
    tree = run.stdout
    base, overrides = release_profiles(root)
    nodes, stack = {}, []  # key -> [text, ident, children]; stack of (depth, key)
    for line in tree.splitlines():
        m = re.match(r"(\d+)(.*)$", line)
        if not m:
            continue
        depth, rest = int(m.group(1)), m.group(2).removesuffix(" (*)")
        package, features, lib = rest.split("|")
        local = f"({root}"
        is_local = local in package
        package = package.replace(local, "(.")  # a path crate: relative, as cargo hashes it
        name = package.split()[0]
        override = overrides.get(name, {} if is_local else overrides.get("*", {}))
        text = json.dumps([package, features, base, override], sort_keys=True)
        key = package + "|" + features
        nodes.setdefault(key, [text, lib or name.replace("-", "_"), []])
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if stack and key not in nodes[stack[-1][1]][2]:
            nodes[stack[-1][1]][2].append(key)
        stack.append((depth, key))
    done = {}

    def fingerprint(key):
        if key not in done:
            text, _, children = nodes[key]
            deps = sorted(fingerprint(c) for c in children)
            done[key] = hashlib.sha256("\n".join([text] + deps).encode()).hexdigest()[:10]
        return done[key]

    by_ident = {}
    for key, (_, ident, _) in nodes.items():
        by_ident.setdefault(ident, []).append(fingerprint(key))
    return {ident: "+".join(sorted(fps)) for ident, fps in by_ident.items()}


def header(root):
    """The comment lines that record what the names were made from."""
    crates = [f"{i}={fp}" for i, fp in sorted(crate_fingerprints(root).items())]
    lines = [f"# toolchain: {toolchain()}"]
    while crates:
        line = "# crates:"
        while crates and len(line) + len(crates[0]) < 99:
            line += " " + crates.pop(0)
        if line == "# crates:":
            line += " " + crates.pop(0)
        lines.append(line)
    return "".join(line + "\n" for line in lines)


def recorded(path):
    """(toolchain, {ident: fingerprint}, [names]) from a link-order file."""
    chain, crates, names = None, {}, []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("# toolchain: "):
                chain = line.removeprefix("# toolchain: ")
            elif line.startswith("# crates:"):
                crates.update(item.split("=", 1) for item in line.split()[2:])
            elif line and not line.startswith("#"):
                names.append(line)
    return chain, crates, names


def check(root, path, max_stale, binary=None):
    """Prints how many names are stale; returns the exit status (1 above `max_stale` percent)."""
    chain, old, names = recorded(path)
    rel = os.path.relpath(path, root)
    if not names:
        print(f"{rel}: no names (not generated yet?); generate: {REGENERATE}")
        return 1
    if binary:
        nm = subprocess.run(["nm", "--defined-only", "--format=posix", binary],
                            capture_output=True, text=True, check=True).stdout
        present = {line.split()[0] for line in nm.splitlines() if line.strip()}
        if not present:
            print(f"{binary} has no symbols: build it with `-C strip=none` (see scripts/link_order.py)")
            return 2
        stale, why = [n for n in names if n not in present], f"not found in {binary}"
    elif not old:
        print(f"{rel} records no crate fingerprints (made by an older scripts/link_order.py); "
              f"regenerate: {REGENERATE}")
        return 1
    else:
        new = crate_fingerprints(root)
        changed = sorted(ident for ident, fp in old.items() if new.get(ident) != fp)
        if chain and chain != toolchain():
            print(f"note: {rel} was generated with {chain}, this is {toolchain()}: every name differs "
                  "in a build with this toolchain (the release workflow regenerates it for its own).")
        if not changed:
            print(f"{rel}: fresh (no crate of the mcplab binary changed its build since it was generated).")
            return 0
        listed = ", ".join(changed[:12]) + (f" and {len(changed) - 12} more" if len(changed) > 12 else "")
        print(f"{rel} is stale: {len(changed)} crates of the mcplab binary changed their build since it "
              f"was generated ({listed}). Their names and the generic code they instantiate are renamed, "
              f"and the linker skips names it does not find (at 6fd80c2, mcplab-store depending on ring and "
              f"mcplab-evals on csv took `tools list --demo` from 8.7 to 12.4 MiB against a "
              f"12 MiB budget). Regenerate (a release build, then ~1 min): {REGENERATE}")
        return 1
    share = 100 * len(stale) / len(names)
    verdict = "stale" if share > max_stale else "fresh enough"
    print(f"{rel}: {len(stale)} of {len(names)} names ({share:.0f} %) {why}: {verdict} "
          f"(limit {max_stale:g} %).")
    if share > max_stale:
        print(f"The linker skips those names and the one-shot commands map more of the binary "
              f"(BENCHMARKS.md, \"Footprint\"). Regenerate (a release build, then ~1 min): {REGENERATE}")
        return 1
    return 0
