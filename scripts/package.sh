#!/usr/bin/env bash
# Builds mcplab's packages for one target from one binary, into dist/ (or --out DIR):
#
#   mcplab-VERSION-TARGET.tar.gz (+ .sha256)   the binary with README and LICENSE
#   npm/mcplab-VERSION.tgz                      the `mcplab` launcher package (packaging/npm)
#   npm/mcplab-PLATFORM-VERSION.tgz             @mcplab/PLATFORM: this target's binary, an
#                                               optional dependency of `mcplab` (esbuild pattern)
#   mcplab-VERSION-py3-none-PLATFORM.whl        the PyPI wheel (maturin, bindings = "bin")
#   crates/*.crate                              `cargo package` of every workspace crate, the
#                                               built UI inside mcplab-server's (no Node needed)
#   SHA256SUMS                                  every file above
#
#   scripts/package.sh                            release build for this machine's target
#   scripts/package.sh --profile dev --test       quick: dev build, then install-test each artefact
#   scripts/package.sh --target aarch64-unknown-linux-gnu   (needs that Rust target + linker)
#   scripts/package.sh --profile dev --all-features --no-crates --test
#                                                 what scripts/test.sh's `package` stage runs: the
#                                                 test build's binary packaged and installed
#
# --all-features builds the binary the test stages built (the features only add tests), so
# cargo reuses it; --no-crates skips `cargo package` (slow: it resolves every crate's lock).
#
# --test runs packaging/test-install.sh on the result: each artefact installed into an empty
# prefix with no Rust or Node development tools on PATH, then `mcplab --version` and
# `mcplab --demo tools list`. Needs cargo, Node >= 20 with npm, python3 (maturin is installed
# into target/package-venv from PyPI on first use).
set -euo pipefail
cd "$(dirname "$0")/.."

profile=release target="" out=dist run_test=0 crates=1 features=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --profile) profile=$2; shift 2 ;;
    --target) target=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --test) run_test=1; shift ;;
    --no-crates) crates=0; shift ;;
    # The test build's feature set exactly (the testkit's test servers are on in a workspace
    # build), so cargo reuses the binary the test stages built instead of rebuilding 13 crates.
    --all-features) features=(--all-features --features mcplab-testkit/test-servers); shift ;;
    -h | --help) sed -n '2,28p' "$0"; exit 0 ;;
    *) echo "package.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -n "$target" ] || target=$(rustc -vV | sed -n 's/^host: //p')

version=$(cargo metadata --no-deps --format-version 1 --locked |
  python3 -c 'import json,sys; print({p["version"] for p in json.load(sys.stdin)["packages"] if p["name"]=="mcplab"}.pop())')
[ "$crates" = 0 ] || python3 packaging/check_versions.py "$version"

case "$target" in
  x86_64-unknown-linux-gnu) npm_platform=linux-x64 ;;
  aarch64-unknown-linux-gnu) npm_platform=linux-arm64 ;;
  x86_64-apple-darwin) npm_platform=darwin-x64 ;;
  aarch64-apple-darwin) npm_platform=darwin-arm64 ;;
  x86_64-pc-windows-msvc) npm_platform=win32-x64 ;;
  *) echo "package.sh: no npm platform for target $target" >&2; exit 2 ;;
esac
exe=mcplab
[[ "$target" == *windows* ]] && exe=mcplab.exe

echo "== mcplab $version for $target ($profile profile) into $out/"
if [ ! -f web/dist/index.html ]; then
  echo "== building the web UI"
  npm ci --prefix web --no-audit --no-fund
  (cd web && npm exec -- vite build)
fi
rm -rf "$out" && mkdir -p "$out/npm" "$out/crates"
out=$(cd "$out" && pwd)

# The host's own target is built without --target, into target/PROFILE, where the tests'
# builds already are; another target goes to target/TARGET/PROFILE.
target_flag=() target_dir=target
if [ "$target" != "$(rustc -vV | sed -n 's/^host: //p')" ]; then
  target_flag=(--target "$target") target_dir=target/$target
fi
profile_dir=$profile
[ "$profile" = dev ] && profile_dir=debug
binary="$target_dir/$profile_dir/$exe"
echo "== building the binary (cargo, --profile $profile)"
cargo build --locked -p mcplab --bin mcplab --profile "$profile" "${target_flag[@]}" "${features[@]}"

echo "== archive"
stem="mcplab-$version-$target"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$stem"
cp "$binary" README.md LICENSE "$stage/$stem/"
tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$out/$stem.tar.gz" "$stem"
(cd "$out" && sha256sum "$stem.tar.gz" >"$stem.tar.gz.sha256")

echo "== npm packages"
python3 packaging/npm/make.py --version "$version" --platform "$npm_platform" \
  --binary "$binary" --license LICENSE --out "$stage/npm"
for dir in "$stage/npm"/*/; do
  npm pack --silent --pack-destination "$out/npm" "$dir" >/dev/null
done

echo "== Python wheel (maturin)"
venv=target/package-venv
if [ ! -x "$venv/bin/maturin" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet 'maturin>=1.16,<2'
fi
# maturin builds the same cargo unit as above (same profile, target and features), so cargo
# reuses it; the check below proves the wheel holds exactly the binary of the other packages.
# A dev build's binary is ~170 MB (line tables): store it uncompressed, deflating it is most
# of this stage's time and only the release wheel is ever published.
compression=()
[ "$profile" = dev ] && compression=(--compression-method stored)
(cd packaging/python && "../../$venv/bin/maturin" build --locked --profile "$profile" \
  "${target_flag[@]}" "${features[@]}" "${compression[@]}" --out "$out")
wheel=$(ls "$out"/mcplab-"$version"-*.whl)
python3 packaging/python/check_wheel.py "$wheel" "$binary"

if [ "$crates" = 1 ]; then
  echo "== crates (cargo package, the built UI inside mcplab-server)"
  rm -rf crates/mcplab-server/ui-dist
  cp -r web/dist crates/mcplab-server/ui-dist
  cargo package --workspace --locked --no-verify --allow-dirty --quiet
  rm -rf crates/mcplab-server/ui-dist
  cp target/package/*-"$version".crate "$out/crates/"
  tar -tzf "$out/crates/mcplab-server-$version.crate" | grep -q "ui-dist/index.html" ||
    { echo "package.sh: mcplab-server's crate lacks the built UI" >&2; exit 1; }
fi

(cd "$out" && find . -type f ! -name SHA256SUMS ! -name '*.sha256' | sort | sed 's|^\./||' |
  xargs sha256sum >SHA256SUMS)
echo "== built:"
(cd "$out" && find . -type f | sort | sed 's|^\./|  |')

if [ "$run_test" = 1 ]; then
  packaging/test-install.sh "$out" "$version" "$npm_platform"
fi
