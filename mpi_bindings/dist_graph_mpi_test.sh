#!/bin/bash
# The dist-graph interception end to end: a plain MPI program with librankmap_reorder.so
# preloaded gets the engine's permutation (computed independently by permutation_tool) and
# correct neighbours, for both creation calls and several job sizes. MPI_FLAVOR=mpich runs it
# under mpiexec.hydra with the MPICH builds.
set -euo pipefail
prog="$1"
lib="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
tool="$3"
source mpi_bindings/mpi_run.sh
export RANKMAP_TOPOLOGY="tleaf 3 2 100 2 10 2 1"
export RANKMAP_ALGORITHM=random RANKMAP_SEED=9
env_args=(RANKMAP_TOPOLOGY="$RANKMAP_TOPOLOGY" RANKMAP_ALGORITHM=random RANKMAP_SEED=9
  LD_PRELOAD="$lib")
dir="${TEST_TMPDIR:-$(mktemp -d)}"
for np in 8 7 2 1; do
  edges="$dir/edges.$np"
  # A light ring and heavy chords to the process np/2 away: the identity order is poor.
  awk -v n="$np" 'BEGIN { for (r = 0; r < n; r++) {
      if (n > 1) print r, (r + 1) % n, 1;
      h = (r + int(n / 2)) % n; if (h != r && h != (r + 1) % n) print r, h, 100 } }' \
    >"$edges"
  want="$("$tool" "$np" random 9 "$edges")"
  for mode in adjacent general; do
    out="$(mpi_run "$np" "${env_args[@]}" -- "$prog" "$mode" "$edges")"
    echo "$out"
    grep -q "^$mode OK n=$np" <<<"$out"
    got="$(grep '^new_rank=' <<<"$out")"
    if [ "$got" != "$want" ]; then
      echo "np=$np $mode: got $got, engine says $want" >&2
      exit 1
    fi
  done
done
# A preset name is read as the preset (api::PresetOrAlgorithm) by the library and the tool
# alike; fast (TreeMatch) brings the heavy chords r, r + 4 together, unlike the identity.
want="$("$tool" 8 fast 9 "$dir/edges.8")"
[ "$want" != "new_rank=0,1,2,3,4,5,6,7" ] || { echo "fast kept the identity" >&2; exit 1; }
out="$(mpi_run 8 RANKMAP_TOPOLOGY="$RANKMAP_TOPOLOGY" RANKMAP_ALGORITHM=fast RANKMAP_SEED=9 \
  LD_PRELOAD="$lib" -- "$prog" adjacent "$dir/edges.8")"
got="$(grep '^new_rank=' <<<"$out")"
[ "$got" = "$want" ] || { echo "preset fast: got $got, engine says $want" >&2; exit 1; }
# A bad algorithm name: every rank falls back to the identity order, nothing hangs.
out="$(mpi_run 8 RANKMAP_TOPOLOGY="$RANKMAP_TOPOLOGY" RANKMAP_ALGORITHM=nope LD_PRELOAD="$lib" \
  -- "$prog" adjacent "$dir/edges.8" 2>&1)"
echo "$out"
grep -q "reordering skipped: rank 0: unknown algorithm 'nope'" <<<"$out"
grep -q "^new_rank=0,1,2,3,4,5,6,7$" <<<"$out"
# RANKMAP_BIND=cpu+mem on this machine (no override): every rank reports its PU and the NUMA node
# its memory is bound to (or why the OS refused).
unset RANKMAP_TOPOLOGY RANKMAP_ALGORITHM RANKMAP_SEED
out="$(mpi_run 2 RANKMAP_BIND=cpu+mem RANKMAP_BIND_REPORT=1 LD_PRELOAD="$lib" \
  -- "$prog" adjacent "$dir/edges.2" 2>&1)"
echo "$out"
[ "$(grep -c -E '^rankmap: rank [01]: cpus [0-9]+ memory (numa [0-9,-]+ \(bind|not bound: )' \
  <<<"$out")" -eq 2 ]
out="$(mpi_run 2 RANKMAP_BIND=mem LD_PRELOAD="$lib" -- "$prog" adjacent "$dir/edges.2" 2>&1)"
echo "$out"
grep -q "reordering skipped: rank 0: RANKMAP_BIND: topology/binding: unknown binding 'mem'" <<<"$out"
echo PASS
