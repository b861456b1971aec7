#!/usr/bin/env bash
# The pictures and the report of `rankmap map`, rendered by a real browser
# (Debian's headless chromium): each SVG loads as an image of its declared
# size, its screenshot has that size and is not blank, and the report's DOM
# holds the three pictures and the numbers map printed.
set -u
rankmap="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

browser() {
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile" --virtual-time-budget=5000 "$@" 2>"$tmp/chromium.err"
}

# Width and height of a PNG, from its IHDR chunk.
png_size() {
  echo "$(od -An -tu1 -j16 -N8 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}')"
}

"$rankmap" frontend stencil --grid 64x64 --procs 64 --output "$tmp/s.grf" >/dev/null 2>&1 ||
  fail "frontend"
"$rankmap" map --topology "tleaf 3 4 100 2 10 8 1" --comm "$tmp/s.grf" --output "$tmp/m.txt" \
  --svg "$tmp/pic" --report "$tmp/report.html" --quiet >"$tmp/map.out" 2>&1 || fail "map: $(cat "$tmp/map.out")"
j=$(sed -nE 's/.*J = ([0-9.e+]+) .*/\1/p' "$tmp/map.out" | head -1)

for kind in tree matrix volume; do
  svg="$tmp/pic.$kind.svg"
  read -r w h < <(sed -nE '1s/.*width="([0-9]+)" height="([0-9]+)".*/\1 \2/p' "$svg")
  [ -n "${w:-}" ] || { fail "$kind: no size in the svg"; continue; }
  # Loaded as an image: the browser parsed it and reports its size.
  cat >"$tmp/$kind.html" <<HTML
<!DOCTYPE html><html><head><title>pending</title></head><body>
<img src="pic.$kind.svg" onload="document.title = 'loaded ' + this.naturalWidth + 'x' + this.naturalHeight"
 onerror="document.title = 'error'"></body></html>
HTML
  browser --dump-dom "file://$tmp/$kind.html" >"$tmp/$kind.dom"
  grep -qF "<title>loaded ${w}x${h}</title>" "$tmp/$kind.dom" ||
    fail "$kind: not loaded as a ${w}x${h} image: $(grep -o '<title>[^<]*' "$tmp/$kind.dom") $(tail -3 "$tmp/chromium.err")"
  browser --hide-scrollbars --window-size="$w,$h" --screenshot="$tmp/$kind.png" "file://$svg" >/dev/null
  [ -f "$tmp/$kind.png" ] || { fail "$kind: no screenshot: $(tail -3 "$tmp/chromium.err")"; continue; }
  [ "$(png_size "$tmp/$kind.png")" = "$w $h" ] || fail "$kind: screenshot is $(png_size "$tmp/$kind.png"), not $w $h"
  # A blank page compresses to a few hundred bytes.
  [ "$(stat -c %s "$tmp/$kind.png")" -gt 5000 ] || fail "$kind: screenshot looks blank"
done

browser --dump-dom "file://$tmp/report.html" >"$tmp/report.dom"
[ "$(grep -o '<svg' "$tmp/report.dom" | wc -l)" -eq 3 ] || fail "report: not 3 pictures"
grep -q "<td>$j</td>" "$tmp/report.dom" || fail "report: J $j missing"
grep -q 'class="box bottom"' "$tmp/report.dom" || fail "report: tree boxes missing"
browser --hide-scrollbars --window-size=1400,2400 --screenshot="$tmp/report.png" "file://$tmp/report.html" >/dev/null
[ "$(png_size "$tmp/report.png")" = "1400 2400" ] || fail "report screenshot size"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all browser checks passed"
