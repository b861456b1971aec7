#!/usr/bin/env bash
# A small instance of bench/partition: a shuffled 16x16x16 mesh onto 2 hosts x 8
# cores, every partitioner, both traffic models replayed in SMPI. --check makes
# the bench fail when a partition is invalid, rankmap's or metis+place's is
# over the imbalance bound, or a replay does not run.
set -euo pipefail
bench="$TEST_SRCDIR/$TEST_WORKSPACE/bench/partition"
out="$TEST_TMPDIR/out.txt"
"$bench" --meshes=stencil3d:16x16x16 --machines="tleaf 2 2 25Gbps:2us 8 40GBps:0.3us" \
  --runs=2 --lat_messages=100 --lat_bytes_per_face=800 --check >"$out" 2>&1 || {
  cat "$out"
  exit 1
}
cat "$out"
fail() { echo "FAIL: $*" >&2; exit 1; }
for row in "status quo" scotch_gmap metis+place/bw rankmap/bw metis+place/lat rankmap/lat; do
  line=$(grep -F "  $row " "$out") || fail "no row $row"
  # J, then the two replays: positive numbers.
  echo "$line" | awk '{for (i = 1; i <= NF; i++) if ($i == "-") exit 1}' ||
    fail "$row has no replay: $line"
done
# The status quo's ratios to itself are 1.
grep -F "  status quo " "$out" | awk '{if ($4 != "1.000" || $8 != "1.000" || $11 != "1.000") exit 1}' ||
  fail "status quo ratios: $(grep -F '  status quo ' "$out")"
echo PASS
