#!/usr/bin/env python3
"""Writes the npm packages for one platform into OUT: `mcplab` (the launcher, mcplab.js, with
every platform package as an exact-version optional dependency) and `@mcplab/PLATFORM` (this
platform's binary, with `os`/`cpu` so npm installs it only where it runs: the esbuild/biome
pattern, nothing downloaded after install). `npm pack` each folder to get the tarballs.

    python3 packaging/npm/make.py --version 0.1.0 --platform linux-x64 \
        --binary target/release/mcplab --license LICENSE --out /tmp/npm
"""
import argparse
import json
import pathlib
import shutil

HERE = pathlib.Path(__file__).resolve().parent
# npm platform → (os, cpu, libc or None). Linux builds link glibc; npm skips them on musl.
PLATFORMS = {
    "linux-x64": ("linux", "x64", "glibc"),
    "linux-arm64": ("linux", "arm64", "glibc"),
    "darwin-x64": ("darwin", "x64", None),
    "darwin-arm64": ("darwin", "arm64", None),
    "win32-x64": ("win32", "x64", None),
}
COMMON = {"license": "MIT"}


def write(folder: pathlib.Path, manifest: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", required=True)
    ap.add_argument("--platform", required=True, choices=sorted(PLATFORMS))
    ap.add_argument("--binary", required=True, type=pathlib.Path)
    ap.add_argument("--license", required=True, type=pathlib.Path)
    ap.add_argument("--out", required=True, type=pathlib.Path)
    a = ap.parse_args()

    launcher = a.out / "mcplab"
    write(launcher, {
        "name": "mcplab",
        "version": a.version,
        "description": "A local workbench for MCP servers and MCP Apps: inspector, chat, apps host, OAuth, evals and checks.",
        **COMMON,
        "bin": {"mcplab": "mcplab.js"},
        "files": ["mcplab.js"],
        "engines": {"node": ">=18"},
        "optionalDependencies": {f"@mcplab/{p}": a.version for p in sorted(PLATFORMS)},
    })
    shutil.copy(HERE / "mcplab.js", launcher / "mcplab.js")
    shutil.copy(HERE / "README.md", launcher / "README.md")
    shutil.copy(a.license, launcher / "LICENSE")

    os_, cpu, libc = PLATFORMS[a.platform]
    native = a.out / a.platform
    exe = "mcplab.exe" if os_ == "win32" else "mcplab"
    manifest = {
        "name": f"@mcplab/{a.platform}",
        "version": a.version,
        "description": f"The mcplab binary for {a.platform} (installed by the `mcplab` package).",
        **COMMON,
        "os": [os_],
        "cpu": [cpu],
        "files": [f"bin/{exe}"],
        "preferUnplugged": True,
    }
    if libc:
        manifest["libc"] = [libc]
    write(native, manifest)
    (native / "bin").mkdir(exist_ok=True)
    shutil.copy(a.binary, native / "bin" / exe)
    (native / "bin" / exe).chmod(0o755)
    shutil.copy(a.license, native / "LICENSE")
    (native / "README.md").write_text(f"The `mcplab` binary for {a.platform}. Install `mcplab` instead: it picks this package.\n")


if __name__ == "__main__":
    main()
