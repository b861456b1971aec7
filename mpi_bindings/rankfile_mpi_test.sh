#!/bin/bash
# A written rankfile really places the ranks: each rank reports the PUs it may run on.
set -euo pipefail
writer="$1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
np=$(($(nproc) < 2 ? 1 : 2))
for mode in physical logical; do
  "$writer" "$mode" "$np" "$dir/rf.$mode"
  cat "$dir/rf.$mode"
  extra=()
  [ "$mode" = physical ] && extra=(--mca rmaps_rank_file_physical 1)
  out="$(timeout 60 mpirun "${extra[@]}" --rankfile "$dir/rf.$mode" -np "$np" \
    sh -c 'echo "rank $OMPI_COMM_WORLD_RANK $(grep Cpus_allowed_list /proc/self/status)"')"
  echo "$out"
  for ((p = 0; p < np; p++)); do
    grep -qE "^rank $p Cpus_allowed_list:[[:space:]]+$((np - 1 - p))\$" <<<"$out"
  done
done
echo PASS
