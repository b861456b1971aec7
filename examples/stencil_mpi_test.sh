#!/bin/bash
# The three ways in, end to end, on examples/stencil_mpi with 8 processes pretending to run on
# 2 nodes x 2 sockets x 2 cores (RANKMAP_TOPOLOGY): every way must lower the model cost J and
# leave the result (checksum) unchanged. Each run also prints the halo exchange time per
# iteration, predicted by the cost model and measured; only the predictions are checked (the
# measured times are shared-machine noise): present, positive and finite, never larger after
# the reordering (default parameters get cheaper with depth), and equal to hand-computed values.
set -euo pipefail
prog="$1"
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
profile_lib="$(abs "$2")"
reorder_lib="$(abs "$3")"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
export RANKMAP_TOPOLOGY="tleaf 3 2 100 2 10 2 1"
np=8
iters=20
mpi() { timeout 60 mpirun -np "$np" -x RANKMAP_TOPOLOGY "$@"; }
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$2" | head -1; }
# predicted|measured identity|reordered OUTPUT
exchange() {
  sed -n "s/^exchange $2: predicted \([^ ]*\) s, measured \([^ ]*\) s per iteration.*/\1 \2/p" \
    <<<"$3" | awk -v k="$1" '{ print (k == "predicted" ? $1 : $2) }'
}
positive() { awk -v x="$1" 'BEGIN { exit !(x + 0 > 0 && x + 0 < 1e300 && x == x + 0) }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }
check_exchange() {
  local out="$1" which kind
  for which in identity reordered; do
    for kind in predicted measured; do
      positive "$(exchange "$kind" "$which" "$out")"
    done
  done
  le "$(exchange predicted reordered "$out")" "$(exchange predicted identity "$out")"
}

base="$(mpi --bind-to none "$prog" run "$iters")"
echo "$base"
checksum="$(field checksum "$base")"
before="$(field before "$base")"
check_exchange "$base"
# Identity on the 4x2 grid, default parameters (hockney), slowest process = logical rank 2 on
# slot 2: 768 B up to slot 0 (socket, 3e-7 + 1e-10 * 768), 768 B down to slot 4 (node,
# 5e-7 + 2e-10 * 768), 192 B right to slot 3 (cache, 2e-7 + 5e-11 * 192) = 1.2400e-6 s.
[ "$(exchange predicted identity "$base")" = "1.240e-06" ]
[ "$(exchange predicted reordered "$base")" = "1.240e-06" ]

# (a) profile without recompiling, map, write a rankfile, relaunch.
mpi --bind-to none -x LD_PRELOAD="$profile_lib" -x RANKMAP_PROFILE_OUT="$dir/st" \
  "$prog" run "$iters" >/dev/null
test -s "$dir/st.mat" && test -s "$dir/st.grf"
planned="$("$prog" map "$dir/st.grf" "$RANKMAP_TOPOLOGY" 1 -)"
echo "$planned"
[ "$(field before "$planned")" -gt "$(field after "$planned")" ]
pus=$(nproc)
cap=$(((np + pus - 1) / pus))
"$prog" map "$dir/st.grf" this "$cap" "$dir/st.rankfile"
cat "$dir/st.rankfile"
relaunched="$(mpi --use-hwthread-cpus --mca rmaps_rank_file_physical 1 \
  --rankfile "$dir/st.rankfile" "$prog" run "$iters")"
echo "$relaunched"
[ "$(field checksum "$relaunched")" = "$checksum" ]
want="$(awk '/^rank/ { split($3, s, "="); printf "%s%s", sep, s[2]; sep = " " }' \
  "$dir/st.rankfile")"
[ "$(sed -n 's/^bindings=//p' <<<"$relaunched")" = "$want" ]

# (b) the program's own reorder = 1, with the interception library preloaded.
dist="$(mpi --bind-to none -x LD_PRELOAD="$reorder_lib" "$prog" dist "$iters")"
echo "$dist"
[ "$(field checksum "$dist")" = "$checksum" ]
[ "$(field before "$dist")" = "$before" ]
[ "$(field after "$dist")" -lt "$before" ]
check_exchange "$dist"

# (c) the API call; same graph and engine, so the same order as (b).
api="$(mpi --bind-to none "$prog" api "$iters")"
echo "$api"
[ "$(field checksum "$api")" = "$checksum" ]
[ "$(field after "$api")" -lt "$before" ]
[ "$(field order "$api")" = "$(field order "$dist")" ]
check_exchange "$api"
[ "$(exchange predicted identity "$api")" = "1.240e-06" ]
# Order 0,2,4,6,1,3,5,7: logical rank 2 on slot 1 sends 768 B to 0 (slot 0, cache), 768 B to
# 4 (slot 2, socket) and 192 B to 3 (slot 5, node): 2.384e-7 + 3.768e-7 + 5.384e-7.
[ "$(field order "$api")" != "0,2,4,6,1,3,5,7" ] ||
  [ "$(exchange predicted reordered "$api")" = "1.154e-06" ]

# --model and --params: a slow root level (1e-5 s + 1e-9 s/B) dominates. Identity: logical
# rank 2 pays 1e-5 + 768e-9 down to slot 4 plus 3.768e-7 + 2.096e-7 = 1.13544e-5 s.
echo "level 0 hockney alpha=1e-5 beta=1e-9" >"$dir/slow_root.params"
tuned="$(mpi --bind-to none "$prog" api "$iters" --model hockney \
  --params "$dir/slow_root.params")"
echo "$tuned"
check_exchange "$tuned"
[ "$(exchange predicted identity "$tuned")" = "1.135e-05" ]
# Reordered: logical ranks 2 and 4 each pay one 192 B root message (1.0192e-5) plus a cache
# (2.384e-7) and a socket (3.768e-7) 768 B message = 1.08072e-5 s.
[ "$(field order "$tuned")" != "0,2,4,6,1,3,5,7" ] ||
  [ "$(exchange predicted reordered "$tuned")" = "1.081e-05" ]
taulop="$(mpi --bind-to none "$prog" api "$iters" --model taulop)"
echo "$taulop"
grep -q '^exchange identity: .*(model taulop)$' <<<"$taulop"
for which in identity reordered; do positive "$(exchange predicted "$which" "$taulop")"; done
if "$prog" api "$iters" --model nosuch 2>/dev/null; then exit 1; fi
echo PASS
