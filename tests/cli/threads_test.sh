#!/bin/bash
# `rankmap map --threads-per-process k` on a real machine's hwloc export: each process gets k
# leaves of one node, the mapping keeps them together, and the OpenMP places printed for the
# binder are the group's PUs. Expectations computed by hand from the XML (hwloc-calc): on
# 16em64t-4s2c2t (4 packages x 2 cores x 2 PUs) PU leaves 0-3 are package 0's PUs 0,8,4,12, and
# four groups of 4 are the four packages.
set -uo pipefail
rankmap="$1"
xml="$2"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
source tests/cli/cli_checks.sh
printf '0 1 100\n1 2 10\n2 3 100\n' >"$dir/chain4.edges"

out="$("$rankmap" map --topology "$xml" --comm "$dir/chain4.edges" --threads-per-process 4 \
  --quiet --output "$dir/m.txt")" || fail "map failed: $out"
echo "$out"
# Each process's first leaf: one per package, every package used once.
[ "$(sort -n "$dir/m.txt" | paste -sd' ')" = "0 4 8 12" ] ||
  fail "first leaves are not 0 4 8 12: $(paste -sd' ' "$dir/m.txt")"
# The places of the process on package 0, and on package 3.
for want in "OMP_NUM_THREADS=4 OMP_PLACES={0},{8},{4},{12} OMP_PROC_BIND=close" \
  "OMP_NUM_THREADS=4 OMP_PLACES={3},{11},{7},{15} OMP_PROC_BIND=close"; do
  grep -qF -- "$want" <<<"$out" || fail "missing: $want"
done
# The heavy pairs (0,1) and (2,3) share nothing below the machine, but J counts them between
# packages: equal to the identity's on this symmetric machine.
grep -q "J = " <<<"$out" || fail "no J"

# Bad input: one line, exit 2.
error too_many_threads "--threads-per-process 17: no node has 17 leaves (the largest has 16)" \
  map --topology "$xml" --comm "$dir/chain4.edges" --threads-per-process 17
error too_few_groups "4 processes need 20 leaves, the topology has room for 3 groups of 5" \
  map --topology "$xml" --comm "$dir/chain4.edges" --threads-per-process 5
error zero_threads "--threads-per-process: '0' is out of range" \
  map --topology "$xml" --comm "$dir/chain4.edges" --threads-per-process 0

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo PASS
