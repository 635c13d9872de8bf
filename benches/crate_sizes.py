# Poor man's `cargo bloat --crates`: sums the sizes of text symbols (nm -S, demangled) of an
# unstripped binary by the crate their path starts with. Sizes are of functions as linked
# (after LTO inlining a function's code is counted where it ended up); data and C code
# without Rust paths are grouped as "[C/other]".
import subprocess, sys, re, collections
out = subprocess.run(["nm", "-S", "--size-sort", "-C", sys.argv[1]], capture_output=True, text=True).stdout
sizes = collections.Counter(); total = 0
for line in out.splitlines():
    parts = line.split(" ", 3)
    if len(parts) < 4: continue
    size = int(parts[1], 16); kind = parts[2]; name = parts[3]
    if kind not in "tTrRdDbB": continue
    total += size
    n = name.lstrip("<&*").replace("dyn ", "").replace("mut ", "")
    m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)::", n)
    crate = m.group(1) if m else "[C/other]"
    if kind in "rRdDbB" and not m: crate = "[data/other]"
    sizes[crate] += size
print(f"total symbol bytes {total/1e6:.1f} MB")
for c, s in sizes.most_common(int(sys.argv[2]) if len(sys.argv) > 2 else 30):
    print(f"{s/1e6:8.2f} MB  {c}")
