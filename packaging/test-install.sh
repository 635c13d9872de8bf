#!/usr/bin/env bash
# Installs each Linux artefact of DIST into an empty prefix, the way a user would, with no Rust
# or Node development tools on PATH (only the runtime the installer itself needs: python3 for
# pip, node for npm), offline, then runs `mcplab --version` and `mcplab --demo tools list` from
# it. Called by `scripts/package.sh --test`.
#
#   packaging/test-install.sh DIST VERSION NPM_PLATFORM
set -euo pipefail
dist=$(cd "$1" && pwd) version=$2 platform=$3
target_of_archive=$(cd "$dist" && ls mcplab-"$version"-*.tar.gz | head -1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A PATH of plain system tools plus python3, node and npm: no cargo, rustc, tsc, vite or npx
# from a development setup.
tools=$work/tools
mkdir -p "$tools"
for t in sh bash env cat ls mkdir rm cp mv ln chmod dirname basename uname head tail grep sed \
  tar gzip sha256sum mktemp readlink sort tr python3 node npm; do
  p=$(command -v "$t") || { echo "test-install: $t is needed" >&2; exit 1; }
  ln -s "$p" "$tools/$t"
done
clean_env=(env -i "PATH=$tools" "HOME=$work/home" "XDG_DATA_HOME=$work/home/data" "LANG=C.UTF-8")
mkdir -p "$work/home"
"${clean_env[@]}" sh -c 'command -v cargo || command -v rustc' >/dev/null &&
  { echo "test-install: cargo is still on the clean PATH" >&2; exit 1; }

try() { # NAME BINARY: the two commands a new user runs first
  local name=$1 bin=$2 out
  out=$("${clean_env[@]}" "$bin" --version)
  [[ "$out" == "mcplab $version ("*")" ]] || { echo "test-install: $name: --version said '$out'" >&2; exit 1; }
  out=$("${clean_env[@]}" "$bin" --demo tools list)
  grep -q '\badd\b' <<<"$out" || { echo "test-install: $name: --demo tools list said: $out" >&2; exit 1; }
  echo "  ok  $name: $("${clean_env[@]}" "$bin" --version)"
}

echo "== install test (offline, clean PATH, empty prefixes under $work)"
(cd "$dist" && "${clean_env[@]}" sha256sum --quiet -c "$target_of_archive.sha256" && "${clean_env[@]}" sha256sum --quiet -c SHA256SUMS)
mkdir "$work/archive"
tar -C "$work/archive" -xzf "$dist/$target_of_archive"
try "archive $target_of_archive" "$work/archive/${target_of_archive%.tar.gz}/mcplab"

mkdir "$work/npm"
(cd "$work/npm" && "${clean_env[@]}" "npm_config_cache=$work/npm-cache" npm_config_update_notifier=false npm install --offline \
  --no-audit --no-fund --loglevel=error "$dist/npm/mcplab-$platform-$version.tgz" "$dist/npm/mcplab-$version.tgz" >/dev/null)
try "npm (node_modules/.bin/mcplab)" "$work/npm/node_modules/.bin/mcplab"
[ -x "$work/npm/node_modules/@mcplab/$platform/bin/mcplab" ] ||
  { echo "test-install: npm did not install @mcplab/$platform" >&2; exit 1; }

"${clean_env[@]}" python3 -m venv "$work/py"
"${clean_env[@]}" "$work/py/bin/pip" install --quiet --no-index --disable-pip-version-check \
  "$(ls "$dist"/mcplab-"$version"-*.whl)"
try "wheel (pip install; what uvx and pipx run)" "$work/py/bin/mcplab"
echo "== every artefact installed and ran"
