#!/bin/bash
# Runs the engine benchmark on its smallest sizes; fails when any mapping is invalid, any J
# differs from the independent recomputation, or a row is missing.
set -euo pipefail
bin="${TEST_SRCDIR}/${TEST_WORKSPACE}/bench/engine_bench"
out="${TEST_TMPDIR}/table.txt"
"$bin" --sizes=64 --meshes=false --network=true --hetero=1 --irregular=false \
  --stencils_n_to_1=false --partitioner=false --seed=3 >"$out"
cat "$out"
# 4 families x 11 algorithms + 2 network instances x 11 algorithms.
rows=$(grep -cE '^(stencil2d|stencil3d|random4|clustered|network)' "$out")
[ "$rows" -eq 66 ] || { echo "expected 66 rows, found $rows"; exit 1; }
if grep -q INVALID "$out"; then echo "invalid mapping"; exit 1; fi
grep -q '^geomean' "$out"
# One heterogeneous-cluster platform: 3 graphs x (11 algorithms + unshuffled).
rows=$(grep -cE '^hetero' "$out")
[ "$rows" -eq 36 ] || { echo "expected 36 hetero rows, found $rows"; exit 1; }
# The ablation variants run and validate too (4 families x 7 variants).
abl="${TEST_TMPDIR}/ablation.txt"
"$bin" --sizes=64 --meshes=false --network=false --hetero=0 --irregular=false --stencils_n_to_1=false --partitioner=false \
  --seed=3 --algorithms=tm,tm-no-exact,tm-no-split,tm-no-refine,tm+exhaustive,multisection-no-refine,scotch \
  >"$abl"
rows=$(grep -cE '^(stencil2d|stencil3d|random4|clustered)' "$abl")
[ "$rows" -eq 28 ] || { echo "expected 28 ablation rows, found $rows"; exit 1; }
if grep -q INVALID "$abl"; then echo "invalid mapping"; exit 1; fi
# An unknown variant is an error, not a silent default.
if "$bin" --sizes=64 --meshes=false --network=false --hetero=0 --irregular=false --stencils_n_to_1=false --partitioner=false \
  --algorithms=tm-no-such >/dev/null 2>&1; then
  echo "unknown ablation accepted"; exit 1
fi
# Threads change times only: the same rows and J with --threads=2.
two="${TEST_TMPDIR}/threads2.txt"
"$bin" --sizes=64 --meshes=false --network=true --hetero=1 --irregular=false \
  --stencils_n_to_1=false --partitioner=false --seed=3 --threads=2 >"$two"
diff <(awk '{print $1, $2, $3}' "$out") <(awk '{print $1, $2, $3}' "$two")
