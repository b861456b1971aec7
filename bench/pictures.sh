#!/usr/bin/env bash
# Screenshots of the pictures `rankmap map` draws, for looking at them: the
# tree, the matrix, the volume chart and the HTML report of a 64-process and
# a 4,096-process stencil, rendered by headless Chromium (Debian's
# `chromium`). PNGs go to OUT_DIR (default: ./pictures-out); nothing is
# committed.
#
#   ./bazelw build //cli:rankmap
#   bench/pictures.sh "$(./bazelw info bazel-bin)/cli/rankmap" /tmp/pics
set -euo pipefail
rankmap="$1"
out="${2:-pictures-out}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT

shot() {  # shot FILE PNG WIDTH HEIGHT
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --hide-scrollbars --screenshot="$2" \
    --window-size="$3,$4" "file://$1" >/dev/null 2>&1
}

# The declared size of an SVG file, "W H".
svg_size() { sed -nE '1s/.*width="([0-9.]+)" height="([0-9.]+)".*/\1 \2/p' "$1"; }

run() {  # run NAME TOPOLOGY GRID PROCS
  local name="$1" topology="$2" grid="$3" procs="$4"
  "$rankmap" frontend stencil --grid "$grid" --procs "$procs" --output "$out/$name.grf" >/dev/null
  "$rankmap" map --topology "$topology" --comm "$out/$name.grf" --output "$out/$name.map" \
    --svg "$out/$name" --report "$out/$name.html" --quiet
  for kind in tree matrix volume; do
    read -r w h < <(svg_size "$out/$name.$kind.svg")
    shot "$out/$name.$kind.svg" "$out/$name.$kind.png" "${w%.*}" "${h%.*}"
  done
  shot "$out/$name.html" "$out/$name.report.png" 1400 2400
}

run p64 "tleaf 3 4 100 2 10 8 1" 64x64 64
run p4096 "tleaf 4 16 1000 16 100 2 10 8 1" 1024x1024 4096
ls -l "$out"/*.png
