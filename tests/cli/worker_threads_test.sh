#!/bin/bash
# `rankmap map --threads`: by default (0) the CPUs the process may run on, at most 8; any count,
# the default, and the default under `taskset -c 0` (one CPU) write the same mapping, one-to-one
# and n-to-1. A negative count is one line, exit 2.
set -uo pipefail
rankmap="$1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
source tests/cli/cli_checks.sh

"$rankmap" frontend stencil --grid 64x64 --procs 4096 --output "$dir/g.grf" >/dev/null ||
  fail "frontend failed"
# 4096 processes on 4096 leaves (one-to-one) and on 64 leaves (n-to-1).
for topo in "tleaf 3 16 100 16 10 16 1" "tleaf 2 8 10 8 1"; do
  "$rankmap" map --topology "$topo" --comm "$dir/g.grf" --quiet --output "$dir/default.txt" \
    >/dev/null || fail "$topo: default failed"
  for t in 1 2 3; do
    "$rankmap" map --topology "$topo" --comm "$dir/g.grf" --quiet --threads "$t" \
      --output "$dir/t$t.txt" >/dev/null || fail "$topo: --threads $t failed"
    cmp -s "$dir/default.txt" "$dir/t$t.txt" || fail "$topo: --threads $t differs from the default"
  done
  if command -v taskset >/dev/null; then
    taskset -c 0 "$rankmap" map --topology "$topo" --comm "$dir/g.grf" --quiet \
      --output "$dir/one_cpu.txt" >/dev/null || fail "$topo: under taskset failed"
    cmp -s "$dir/default.txt" "$dir/one_cpu.txt" || fail "$topo: one CPU differs"
  fi
  [ "$(wc -l <"$dir/default.txt")" -eq 4096 ] || fail "$topo: not 4096 lines"
  echo "ok $topo"
done

error negative_threads "--threads: '-1' is out of range" \
  map --topology "tleaf 1 4 1" --comm "$dir/g.grf" --threads -1

[ "$failures" -eq 0 ] || exit 1
echo PASS
