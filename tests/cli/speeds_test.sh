#!/bin/bash
# Speed-aware mapping through the command line: a heterogeneous SUMMA (processes 0 and 1 are 4x
# faster, so their rectangles are 4x larger) on a network spec whose last node is 4x faster
# (`speed` directive). `frontend --output G` writes G.speeds; `map --process-speeds G.speeds`
# keeps both fast rectangles on the fast node's two cores (leaves 6 and 7), while the plain
# mapping, which minimises communication only, puts at least one on a slow node.
set -uo pipefail
rankmap="$1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
source tests/cli/cli_checks.sh
cat >"$dir/two_speeds.net" <<'SPEC'
network
cluster c
speed 1
3 x core:2
speed 4
1 x core:2
SPEC

"$rankmap" frontend summa --speeds 4,4,1,1,1,1,1,1 --n 64 --flow one-to-all \
  --output "$dir/g.edges" >"$dir/frontend.log" 2>&1 || fail "frontend failed: $(cat "$dir/frontend.log")"
grep -q "process speeds written to $dir/g.edges.speeds" "$dir/frontend.log" ||
  fail "frontend did not report the speeds file"
[ "$(grep -v '^#' "$dir/g.edges.speeds" | paste -sd' ')" = "4 4 1 1 1 1 1 1" ] ||
  fail "speeds file: $(cat "$dir/g.edges.speeds")"

# Leaves of the first two processes (plain mapping: one leaf per line, by process).
fast_leaves() { head -2 "$1" | paste -sd' '; }

"$rankmap" map --topology "$dir/two_speeds.net" --comm "$dir/g.edges" --quiet \
  --output "$dir/free.txt" >/dev/null || fail "map without speeds failed"
slow=0
for l in $(head -2 "$dir/free.txt"); do [ "$l" -lt 6 ] && slow=$((slow + 1)); done
[ "$slow" -ge 1 ] || fail "without --process-speeds no fast rectangle is on a slow node: $(fast_leaves "$dir/free.txt")"
echo "without: fast rectangles on leaves $(fast_leaves "$dir/free.txt")"

for seed in 1 2 3; do
  "$rankmap" map --topology "$dir/two_speeds.net" --comm "$dir/g.edges" --quiet --seed "$seed" \
    --process-speeds "$dir/g.edges.speeds" --output "$dir/m$seed.txt" >/dev/null ||
    fail "map with speeds failed (seed $seed)"
  [ "$(fast_leaves "$dir/m$seed.txt" | tr ' ' '\n' | sort -n | paste -sd' ')" = "6 7" ] ||
    fail "seed $seed: fast rectangles on leaves $(fast_leaves "$dir/m$seed.txt"), not 6 7"
  # Every slow process on a slow leaf, each leaf once.
  [ "$(tail -n +3 "$dir/m$seed.txt" | sort -n | paste -sd' ')" = "0 1 2 3 4 5" ] ||
    fail "seed $seed: slow processes on $(tail -n +3 "$dir/m$seed.txt" | paste -sd' ')"
done
echo "with: fast rectangles on leaves $(fast_leaves "$dir/m1.txt")"

# Bad input: one line, exit 2.
printf '2\n4\n1\n1\n1\n1\n1\n1\n' >"$dir/unknown.speeds"
printf '4\n4\n4\n1\n1\n1\n1\n1\n' >"$dir/three_fast.speeds"
printf '4\n4\n' >"$dir/short.speeds"
error unknown_speed "unknown.speeds: speeds: process 0 needs speed 2 but the topology's leaves have speeds 1, 4" \
  map --topology "$dir/two_speeds.net" --comm "$dir/g.edges" --process-speeds "$dir/unknown.speeds"
error too_few_fast "three_fast.speeds: speeds: 3 processes need speed 4 but the topology has 2 slots of that speed" \
  map --topology "$dir/two_speeds.net" --comm "$dir/g.edges" --process-speeds "$dir/three_fast.speeds"
error wrong_count "short.speeds: 2 speeds for 8 processes" \
  map --topology "$dir/two_speeds.net" --comm "$dir/g.edges" --process-speeds "$dir/short.speeds"
error with_near "--process-speeds: cannot be combined with --near" \
  map --topology "$dir/two_speeds.net" --comm "$dir/g.edges" --process-speeds "$dir/g.edges.speeds" --near gpu
error missing_file "nope.speeds" \
  map --topology "$dir/two_speeds.net" --comm "$dir/g.edges" --process-speeds "$dir/nope.speeds"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo PASS
