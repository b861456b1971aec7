#!/usr/bin/env bash
# The rankmap command as the README presents it: relative paths under
# `bazel run`, front ends writing to stdout, the README's command table
# against the parser, help texts, the --slots-per-leaf flag and its old name.
set -u
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
rankmap="$(abs "$1")"
readme="$(abs "$2")"
data="$(dirname "$0")/data"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
t4="tleaf 2 2 10 2 1"

# `bazel run` starts the binary inside its runfiles and names the caller's
# directory in BUILD_WORKING_DIRECTORY: relative inputs and outputs are there.
mkdir -p "$tmp/caller" "$tmp/elsewhere"
cp "$data/cycle4.edges" "$tmp/caller/t.edges"
(cd "$tmp/elsewhere" && BUILD_WORKING_DIRECTORY="$tmp/caller" "$rankmap" map --topology "$t4" \
  --comm t.edges --output m.txt >"$tmp/run.out" 2>"$tmp/run.err") || fail "bazel run paths: $(cat "$tmp/run.err")"
[ -f "$tmp/caller/m.txt" ] || fail "bazel run paths: m.txt not in the caller's directory"
[ -e "$tmp/elsewhere/m.txt" ] && fail "bazel run paths: m.txt written in the start directory"
(cd "$tmp/elsewhere" && BUILD_WORKING_DIRECTORY="$tmp/caller" "$rankmap" frontend stencil --grid 4x4 \
  --procs 4 --output s.grf >/dev/null 2>&1) || fail "bazel run frontend output"
[ -f "$tmp/caller/s.grf" ] || fail "bazel run paths: s.grf not in the caller's directory"

# Front ends write the graph to stdout without --output, the report to
# stderr. 4x4 cells on 2x2 processes: neighbours share 2 cells of 8 bytes,
# 32 bytes both ways.
"$rankmap" frontend stencil --grid 4x4 --procs 4 >"$tmp/st.out" 2>"$tmp/st.err" || fail "stencil stdout"
printf '%s\n' "# 4 vertices, 4 edges; lines 'i j w', 0-based" "0 1 32" "0 2 32" "1 3 32" "2 3 32" >"$tmp/st.want"
diff -u "$tmp/st.want" "$tmp/st.out" || fail "stencil graph on stdout"
grep -q "^stencil 4x4, 5-point, halo 1: 4 processes" "$tmp/st.err" || fail "stencil report on stderr"
# ... and the output reads back as a graph.
"$rankmap" map --topology "$t4" --comm "$tmp/st.out" --quiet >/dev/null 2>&1 || fail "stdout graph reads back"
# wave2d: a 4x4 mesh of two equal processes, one column: they share 4 cells,
# 4 * 8 bytes each way.
"$rankmap" frontend wave2d --grid 4x4 --procs 2 >"$tmp/w.out" 2>"$tmp/w.err" || fail "wave2d: $(cat "$tmp/w.err")"
grep -qx "0 1 64" "$tmp/w.out" || fail "wave2d graph: $(cat "$tmp/w.out")"
# mpdata: 8x8x1 on 4 equal processors, a 2x2 arrangement of 4x4 sub-domains,
# filled column-major: 0-1 and 2-3 are vertical neighbours (slices of
# 1 x (1 + 4 + 1) cells, 96 bytes both ways), 0-2 and 1-3 horizontal (4 bars
# of one cell, 64 bytes).
"$rankmap" frontend mpdata --procs 4 --domain 8x8x1 >"$tmp/mp.out" 2>"$tmp/mp.err" || fail "mpdata: $(cat "$tmp/mp.err")"
printf '%s\n' "# 4 vertices, 4 edges; lines 'i j w', 0-based" "0 1 96" "0 2 64" "1 3 64" "2 3 96" >"$tmp/mp.want"
diff -u "$tmp/mp.want" "$tmp/mp.out" || fail "mpdata graph"
"$rankmap" frontend mpdata --help | grep -q -- "--domain" || fail "mpdata flags in help"

# The README's command table and the parser agree: every flag of a row is
# accepted by that command, and `topology T` takes the topology as operand.
grep -E '^\| `[a-z]+[ `]' "$readme" >"$tmp/table"
[ "$(wc -l <"$tmp/table")" -ge 6 ] || fail "README command table not found"
while IFS= read -r row; do
  cmd=$(echo "$row" | sed -E 's/^\| `([a-z]+).*/\1/')
  "$rankmap" "$cmd" --help >"$tmp/help.$cmd" 2>&1 || fail "$cmd --help"
  for flag in $(echo "$row" | cut -d'|' -f2 | grep -oE -- '--[a-z][a-z_-]*'); do
    grep -qE -- "^  ${flag//_/-}( |$)" "$tmp/help.$cmd" || fail "README: '$cmd $flag' is not in '$cmd --help'"
  done
done <"$tmp/table"
"$rankmap" topology "$t4" --format tleaf >"$tmp/pos.out" 2>"$tmp/pos.err" || fail "topology T: $(cat "$tmp/pos.err")"
[ "$(cat "$tmp/pos.out")" = "$t4" ] || fail "topology T: $(cat "$tmp/pos.out")"

# Help texts: one default per flag.
for c in map eval compare topology frontend demo bind; do
  "$rankmap" "$c" --help >"$tmp/h" 2>&1
  grep -E 'default:.*default:' "$tmp/h" && fail "$c --help: two defaults"
  grep -F "(default: '')" "$tmp/h" && fail "$c --help: empty default"
done

# --slots-per-leaf, and its old name: 2 processes per leaf.
for flag in --slots-per-leaf --slots_per_leaf --oversubscribe; do
  "$rankmap" topology --topology "tleaf 1 2 1" "$flag" 2 --format json >"$tmp/cap.json" 2>&1 || fail "$flag"
  grep -qF '"capacity": 4' "$tmp/cap.json" || fail "$flag 2: $(cat "$tmp/cap.json")"
done
"$rankmap" map --topology "tleaf 1 2 1" --slots-per-leaf 2 --comm "$data/cycle4.edges" --quiet \
  >"$tmp/sp.map" 2>&1 || fail "map --slots-per-leaf: $(cat "$tmp/sp.map")"
[ "$(sort "$tmp/sp.map" | uniq -c | awk '{print $1}' | tr '\n' ' ')" = "2 2 " ] || fail "2 per leaf: $(cat "$tmp/sp.map")"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all usability cases passed"
