#!/bin/bash
# MPI_Cart_create with reorder = 1 under librankmap_reorder.so: the grid's ranks follow the
# engine's mapping of the halo pattern (recomputed independently by permutation_tool from the
# same edges), and MPI_Cart_shift, MPI_Neighbor_allgather and MPI_Neighbor_alltoall agree on the
# neighbours afterwards. MPI_FLAVOR=mpich runs it under mpiexec.hydra with the MPICH builds.
set -euo pipefail
prog="$1"
lib="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
tool="$3"
source mpi_bindings/mpi_run.sh
export RANKMAP_TOPOLOGY="tleaf 3 2 100 2 10 2 1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
# grid_edges ROWS COLS PR PC: each process sends 1 to each of its 4 neighbours (row-major ranks).
grid_edges() {
  awk -v R="$1" -v C="$2" -v pr="$3" -v pc="$4" 'BEGIN {
    for (r = 0; r < R; r++) for (c = 0; c < C; c++) {
      me = r * C + c
      for (s = -1; s <= 1; s += 2) {
        rr = r + s; if (rr < 0 || rr >= R) { if (!pr) rr = -1; else rr = (rr + R) % R }
        if (rr >= 0 && rr * C + c != me) print me, rr * C + c, 1
        cc = c + s; if (cc < 0 || cc >= C) { if (!pc) cc = -1; else cc = (cc + C) % C }
        if (cc >= 0 && r * C + cc != me) print me, r * C + cc, 1
      } } }'
}
# np rows cols periodic-rows periodic-cols algorithm moves (1: the engine's order is not the
# identity, so the test sees a real reordering)
while read -r np rows cols pr pc alg moves; do
  cells=$((rows * cols))
  grid_edges "$rows" "$cols" "$pr" "$pc" >"$dir/grid.edges"
  want="$(RANKMAP_TOPOLOGY="$RANKMAP_TOPOLOGY" "$tool" "$cells" "$alg" 5 "$dir/grid.edges")"
  out="$(mpi_run "$np" RANKMAP_TOPOLOGY="$RANKMAP_TOPOLOGY" RANKMAP_ALGORITHM="$alg" \
    RANKMAP_SEED=5 LD_PRELOAD="$lib" -- "$prog" "$rows" "$cols" "$pr" "$pc")"
  echo "$out"
  grep -q "^cart OK n=$np$" <<<"$out"
  got="$(grep '^new_rank=' <<<"$out")"
  # Processes beyond the grid report -1 and are not part of the engine's answer.
  got="new_rank=$(cut -d= -f2 <<<"$got" | cut -d, -f1-"$cells")"
  if [ "$got" != "$want" ]; then
    echo "np=$np ${rows}x$cols: got $got, engine says $want" >&2
    exit 1
  fi
  if [ "$moves" = 1 ] && [ "$want" = "new_rank=$(seq -s, 0 $((cells - 1)))" ]; then
    echo "np=$np: the engine's order is the identity; the test would not see a reordering" >&2
    exit 1
  fi
done <<'CASES'
8 4 2 1 0 random 1
8 2 4 1 1 tm 1
8 4 2 1 0 multisection 1
8 4 2 0 0 tm 0
7 2 3 1 1 tm 1
6 3 2 1 0 random 1
CASES
echo PASS
