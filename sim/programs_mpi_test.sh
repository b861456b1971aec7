#!/usr/bin/env bash
# The application programs under a real MPI (Open MPI): results checked by the
# programs themselves (stencil grid sum equal for every process count, mesh halo
# values, SUMMA product against a serial multiply).
set -u
stencil="$1" mesh="$2" summa="$3"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
run() { mpirun --oversubscribe -np "$@"; }

# The Jacobi sum does not depend on the decomposition.
for np in 1 6 8; do
  run "$np" "$stencil" --grid=20x18x16 --iterations=3 --check >"$tmp/s$np.out" 2>&1 ||
    fail "stencil3d -np $np: $(cat "$tmp/s$np.out")"
  grep "grid sum" "$tmp/s$np.out" >"$tmp/s$np.sum"
done
cmp -s "$tmp/s1.sum" "$tmp/s6.sum" && cmp -s "$tmp/s1.sum" "$tmp/s8.sum" ||
  fail "stencil3d sums differ: $(cat "$tmp"/s*.sum)"
grep -q "processes 3x2x1" "$tmp/s6.out" || fail "stencil3d: MPI_Dims_create(6) is not 3x2x1"

# A 20 x 20 grid mesh in 4 parts (column halves of row halves); every received
# value is checked.
awk 'BEGIN { n = 20; print n * n, 2 * n * (n - 1);
  for (r = 0; r < n; r++) for (c = 0; c < n; c++) { v = r * n + c + 1; line = "";
    if (r > 0) line = line " " (v - n); if (c > 0) line = line " " (v - 1);
    if (c < n - 1) line = line " " (v + 1); if (r < n - 1) line = line " " (v + n);
    print substr(line, 2) } }' >"$tmp/grid.graph"
awk 'BEGIN { for (v = 0; v < 400; v++) print int(v / 200) * 2 + int((v % 20) / 10) }' \
  >"$tmp/grid.part"
run 4 "$mesh" "$tmp/grid.graph" "$tmp/grid.part" --iterations=3 --values-per-vertex=5 \
  >"$tmp/m.out" 2>&1 || fail "mesh_halo: $(cat "$tmp/m.out")"
grep -q "400 vertices, 4 parts, 4 neighbour pairs" "$tmp/m.out" || fail "mesh_halo: $(cat "$tmp/m.out")"
# As a solver: 4 exchanges and 8 allreduces per iteration, every value and sum checked.
run 4 "$mesh" "$tmp/grid.graph" "$tmp/grid.part" --iterations=2 --exchanges=4 --allreduces=2 \
  >"$tmp/cg.out" 2>&1 || fail "mesh_halo as a solver: $(cat "$tmp/cg.out")"
grep -q "2 iterations of 4 exchanges and 8 allreduces" "$tmp/cg.out" ||
  fail "mesh_halo as a solver: $(cat "$tmp/cg.out")"
# A partition with a part for a missing rank: one line, exit 2.
run 2 "$mesh" "$tmp/grid.graph" "$tmp/grid.part" >"$tmp/m2.out" 2>&1 && fail "mesh_halo accepted 4 parts on 2 ranks"
grep -q "4 parts, 2 MPI ranks" "$tmp/m2.out" || fail "mesh_halo error: $(cat "$tmp/m2.out")"

# SUMMA with an owner holding two rectangles.
printf 'summa 8 4\nrect 0 0 5 5 0\nrect 5 0 3 5 1\nrect 0 5 2 3 2\nrect 2 5 4 3 3\nrect 6 5 2 3 0\n' \
  >"$tmp/t.summa"
for flow in one-to-all ring; do
  run 4 "$summa" "$tmp/t.summa" --iterations=2 --flow=$flow >"$tmp/p.out" 2>&1 ||
    fail "summa $flow: $(cat "$tmp/p.out")"
  grep -q "product OK" "$tmp/p.out" || fail "summa $flow: $(cat "$tmp/p.out")"
done
# The ring flow needs a column-based partition.
printf 'summa 4 2\nrect 0 0 2 4 0\nrect 2 0 2 2 1\nrect 2 2 2 2 2\n' >"$tmp/rows.summa"
run 3 "$summa" "$tmp/rows.summa" --flow=ring >"$tmp/r.out" 2>&1 && fail "summa ring accepted rows"
grep -q "column-based" "$tmp/r.out" || fail "summa ring error: $(cat "$tmp/r.out")"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
