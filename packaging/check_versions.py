#!/usr/bin/env python3
"""Checks that the workspace's own crates are pinned to exactly VERSION in
[workspace.dependencies] (cargo needs a version to package a path dependency; the crates move
in lockstep, so each pin must be `=VERSION`) and that every workspace library crate is listed there (the binary crate `mcplab` is no
dependency).

    python3 packaging/check_versions.py 0.1.0
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main() -> int:
    version = sys.argv[1]
    manifest = (ROOT / "Cargo.toml").read_text()
    pins = dict(re.findall(r'^(mcplab[\w-]*) = \{ path = "[^"]+", version = "=([^"]+)" \}', manifest, re.M))
    crates = sorted(p.parent.name for p in (ROOT / "crates").glob("*/Cargo.toml"))
    problems = [f"{c}: not in [workspace.dependencies] with `version = \"={version}\"`" for c in crates if c not in pins and c != "mcplab"]
    problems += [f"{c}: pinned to ={v}, the workspace is {version}" for c, v in pins.items() if v != version]
    for path in sorted((ROOT / "crates").glob("*/Cargo.toml")):
        for dep in re.findall(r'^(mcplab[\w-]*) = \{ path = ', path.read_text(), re.M):
            problems.append(f"{path.relative_to(ROOT)}: {dep} by path; use `{dep}.workspace = true`")
    for p in problems:
        print(f"check_versions: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
