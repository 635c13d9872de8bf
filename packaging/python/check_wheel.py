#!/usr/bin/env python3
"""Checks that WHEEL holds exactly BINARY as its `mcplab` script (the same bytes as the archive
and the npm package), so every channel ships one build.

    python3 packaging/python/check_wheel.py dist/mcplab-0.1.0-py3-none-manylinux_2_17_x86_64.whl target/release/mcplab
"""
import hashlib
import sys
import zipfile


def main() -> int:
    wheel, binary = sys.argv[1], sys.argv[2]
    want = hashlib.sha256(open(binary, "rb").read()).hexdigest()
    with zipfile.ZipFile(wheel) as z:
        scripts = [n for n in z.namelist() if ".data/scripts/" in n and n.rsplit("/", 1)[1] in ("mcplab", "mcplab.exe")]
        if len(scripts) != 1:
            print(f"check_wheel: {wheel} has {len(scripts)} mcplab scripts, want 1: {scripts}", file=sys.stderr)
            return 1
        got = hashlib.sha256(z.read(scripts[0])).hexdigest()
    if got != want:
        print(f"check_wheel: the wheel's {scripts[0]} is not {binary} (sha256 {got} vs {want}): "
              "maturin rebuilt it differently", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
