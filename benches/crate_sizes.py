# Poor man's `cargo bloat`, on an unstripped release binary already built (cargo bloat would
# build its own, one more fat-LTO link): sums the sizes of symbols (nm -S, demangled) three ways.
#
#   python3 benches/crate_sizes.py BINARY [N] [crates|functions|generics]
#
# crates     (default) text and data by the crate their path starts with; data and C code
#            without Rust paths are "[data/other]" / "[C/other]"
# functions  the N largest functions
# generics   functions grouped with their generic arguments removed (`f::<A>` and `f::<B>` are
#            one row) and trait impls by trait method (`<X as Serialize>::serialize` is one row):
#            how many copies monomorphization made and their bytes, like cargo-llvm-lines but
#            after LTO (a function is counted where it ended up after inlining)
import collections
import re
import subprocess
import sys


def symbols(binary):
    out = subprocess.run(["nm", "-S", "--size-sort", "-C", binary], capture_output=True, text=True).stdout
    for line in out.splitlines():
        parts = line.split(" ", 3)
        if len(parts) == 4:
            yield int(parts[1], 16), parts[2], parts[3]


def drop_args(text):
    """Removes every balanced `<…>` (generic arguments) and the `::` left before one."""
    out, depth = [], 0
    for ch in text:
        depth += ch == "<"
        if depth == 0:
            out.append(ch)
        depth -= ch == ">" and depth > 0
    return "".join(out).replace("::::", "::").rstrip(":")


def strip_generics(name):
    """`a::b<T>::c::<U>` → `a::b::c`; `<X<T> as tr::Tr<U>>::m` → `<_ as tr::Tr>::m`."""
    name = re.sub(r"::h[0-9a-f]{16}$", "", name).replace("::{{closure}}", "")
    if not name.startswith("<"):
        return drop_args(name)
    depth = 0
    for i, ch in enumerate(name):
        depth += (ch == "<") - (ch == ">")
        if depth == 0:
            break
    inner, rest = name[1:i], name[i + 1:]
    depth, cut = 0, -1
    for j, ch in enumerate(inner):
        depth += (ch == "<") - (ch == ">")
        if depth == 0 and inner.startswith(" as ", j):
            cut = j
            break
    head = "_ as " + drop_args(inner[cut + 4:]) if cut >= 0 else drop_args(inner)
    return f"<{head}>{drop_args(rest)}"


def main():
    binary = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    mode = sys.argv[3] if len(sys.argv) > 3 else "crates"
    sizes, counts, total = collections.Counter(), collections.Counter(), 0
    for size, kind, name in symbols(binary):
        if kind not in "tTrRdDbB":
            continue
        total += size
        if mode == "functions":
            if kind in "tT":
                sizes[name] += size
            continue
        if mode == "generics":
            if kind in "tT":
                key = strip_generics(name)
                sizes[key] += size
                counts[key] += 1
            continue
        n_ = name.lstrip("<&*").replace("dyn ", "").replace("mut ", "")
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)::", n_)
        crate = m.group(1) if m else "[C/other]"
        if kind in "rRdDbB" and not m:
            crate = "[data/other]"
        sizes[crate] += size
    print(f"total symbol bytes {total / 1e6:.1f} MB")
    for key, s in sizes.most_common(n):
        copies = f"  {counts[key]:5d}×" if mode == "generics" else ""
        print(f"{s / 1e6:8.3f} MB{copies}  {key[:160]}")


if __name__ == "__main__":
    main()
